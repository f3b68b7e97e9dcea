"""A hand view's card faces are made once per distinct face and shared by the views
that show it (issue 36: a third of a hand view's validation); a face that changes (a
card picked) is its own, and the card buttons' payloads are those :func:`pack` makes."""

from __future__ import annotations

from test_service_support import game_of
from test_service_turns import two_player_buraco

from bot import hands
from bot.effects import CardFace, pack
from bot.i18n import Translator
from bot.service import Service


async def test_the_same_face_is_one_instance_and_a_picked_card_another(svc: Service) -> None:
    gid, ana, _bia = await two_player_buraco(svc)
    _version, game = await game_of(svc.store)
    again = hands.hand_view(game, 0, Translator(game.lang))
    assert again == ana  # the same view as the service's
    assert all(a is b for a, b in zip(again.cards, ana.cards, strict=True))
    game.seats[0].sel = [2]
    shown = hands.hand_view(game, 0, Translator(game.lang))
    assert shown.cards[2] == CardFace(**{**ana.cards[2].model_dump(), "selected": True})
    assert shown.cards[2] is not ana.cards[2]
    assert [c is d for c, d in zip(shown.cards, ana.cards, strict=True)] == [
        i != 2 for i in range(len(ana.cards))]
    cards = [b.data for row in shown.buttons for b in row if b.data.split("|")[2] in "tu"]
    assert cards == [pack(gid, game.seats[0].ver, "u" if i == 2 else "t", i)
                     for i in range(len(ana.cards))]
