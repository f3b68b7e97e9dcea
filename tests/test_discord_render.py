"""Discord rendering (adapters/discord/render.py): Discord's component limits (5 rows,
5 buttons a row, 25 options a select, custom_id <= 100) hold for any hand size, no card is
ever dropped, and no card is ever named in a custom_id (DESIGN "One button press")."""

from __future__ import annotations

import pytest

from adapters.discord.render import Btn, Menu, hand_message, table_message, text_message
from bot.effects import Button, CardFace, View, pack
from bot.i18n import Translator

SUITS = "♣♦♥♠"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def big_hand(n: int, actions: int = 4, selected: frozenset[int] = frozenset()) -> View:
    """A hand view as bot.views builds it: card buttons (8 a row), then action rows."""
    faces = [CardFace(index=i, code=f"x{i}", text=f"{RANKS[i % 13]}{SUITS[i // 13 % 4]}",
                      red=SUITS[i // 13 % 4] in "♦♥", selected=i in selected) for i in range(n)]
    cards = [Button(label=f.text, data=pack("g1", 3, "t", f.index)) for f in faces]
    rows = [cards[i:i + 8] for i in range(0, n, 8)]
    acts = [Button(label=f"+{k + 1}", data=pack("g1", 3, "e", k)) for k in range(actions)]
    rows += [acts[i:i + 6] for i in range(0, actions, 6)]
    return View(title=f"Sua mão ({n} cartas)", lines=["Sua vez."], buttons=rows, cards=faces,
                version=3)


def offered(message_rows: list[Btn | Menu | list[Btn]]) -> list[str]:
    """Every card payload the selects offer."""
    return [o.value for row in message_rows if isinstance(row, Menu)
            and row.custom_id.startswith("bbc:") for o in row.options]


def check_limits(rows: list[list[Btn] | Menu]) -> None:
    assert len(rows) <= 5
    for row in rows:
        if isinstance(row, Menu):
            assert 1 <= len(row.options) <= 25 and len(row.custom_id) <= 100
            assert all(len(o.value) <= 100 and len(o.label) <= 100 for o in row.options)
        else:
            assert 1 <= len(row) <= 5
            assert all(len(b.custom_id) <= 100 and len(b.label) <= 80 for b in row)


@pytest.mark.parametrize("n", [1, 11, 25, 26, 44, 75])
def test_every_card_of_a_hand_up_to_75_is_offered_at_once(n: int) -> None:
    view = big_hand(n)
    msg = hand_message(view, "g1", Translator())
    check_limits(msg.rows)
    assert offered(msg.rows) == [pack("g1", 3, "t", i) for i in range(n)]


def test_a_hand_over_75_cards_is_paged_and_every_card_is_reachable() -> None:
    view = big_hand(90)
    first = hand_message(view, "g1", Translator())
    second = hand_message(view, "g1", Translator(), page=1)
    check_limits(first.rows)
    check_limits(second.rows)
    assert offered(first.rows) + offered(second.rows) == [pack("g1", 3, "t", i)
                                                         for i in range(90)]
    pager = [b for row in first.rows if isinstance(row, list) for b in row
             if b.custom_id.startswith("bbp:")]
    assert pager == [Btn("Cartas 76–90", "bbp:g1|3|1")]


def test_actions_that_do_not_fit_as_buttons_go_into_one_select() -> None:
    view = big_hand(60, actions=14)  # three card selects leave two rows for 14 actions
    msg = hand_message(view, "g1", Translator())
    check_limits(msg.rows)
    buttons = [b.custom_id[3:] for row in msg.rows if isinstance(row, list) for b in row]
    menus = [row for row in msg.rows if isinstance(row, Menu) and row.custom_id.startswith("bba:")]
    assert len(menus) == 1
    assert buttons + [o.value for o in menus[0].options] == [pack("g1", 3, "e", k)
                                                             for k in range(14)]


def test_selected_cards_are_the_selects_defaults_and_marked_in_the_text() -> None:
    msg = hand_message(big_hand(3, selected=frozenset({1})), "g1", Translator())
    menu = msg.rows[0]
    assert isinstance(menu, Menu)
    assert [o.default for o in menu.options] == [False, True, False]
    assert menu.max_values == 3
    assert msg.description.startswith("A♣ **[2♣]** 3♣")


def test_no_card_is_named_in_a_custom_id() -> None:
    msg = hand_message(big_hand(40), "g1", Translator())
    ids = [row.custom_id for row in msg.rows if isinstance(row, Menu)]
    ids += [o.value for row in msg.rows if isinstance(row, Menu) for o in row.options]
    ids += [b.custom_id for row in msg.rows if isinstance(row, list) for b in row]
    assert not [i for i in ids if any(s in i for s in SUITS)]


def test_the_table_keeps_the_service_buttons_and_reddens_hearts() -> None:
    view = View(title="Buraco", lines=["Lixo: 7♥"],
                buttons=[[Button(label="Entrar", data=pack("g1", 0, "j")),
                          Button(label="Cancelar", data=pack("g1", 0, "x"))]])
    msg = table_message(view)
    assert msg.description == "Lixo: 7♥\ufe0f"
    assert msg.rows == [[Btn("Entrar", "bb:g1|0|j|", "success"),
                         Btn("Cancelar", "bb:g1|0|x|", "danger")]]


def test_a_hand_view_without_card_buttons_shows_the_cards_as_text() -> None:
    faces = [CardFace(index=0, code="7h", text="7♥", red=True)]
    msg = hand_message(View(title="Sua mão (1 carta)", cards=faces), "g1", Translator())
    assert msg.rows == []
    assert msg.description.startswith("7♥\ufe0f")


def test_the_card_drawn_this_turn_is_marked_in_the_select_as_in_the_text() -> None:
    """The select's options say what the embed says (bot.hands.DRAWN_MARK, RULES A4/D1:
    the stock's card and a red 3's replacements): "•" before a drawn card, "2:" before a
    card in group 2 (a trial found the Discord selects without the mark)."""
    view = big_hand(3)
    faces = [view.cards[0], view.cards[1].model_copy(update={"drawn": True}),
             view.cards[2].model_copy(update={"group": 2})]
    msg = hand_message(view.model_copy(update={"cards": faces}), "g1", Translator())
    menu = msg.rows[0]
    assert isinstance(menu, Menu)
    assert [o.label for o in menu.options] == ["A♣", "•2♣", "2:3♣"]
    assert msg.description.startswith("A♣ •2♣ 2:3♣")


def test_names_are_shown_as_typed_never_as_markdown_or_a_mention() -> None:
    """A display name is text, as on Telegram (which escapes it as HTML): ``**Bia**``,
    ``Dé ||x||``, ``@everyone`` and ``<@id>`` in the table and in a plain message come
    out escaped (discord.utils), so they are neither bold, a spoiler nor a mention; the
    red suits keep their emoji selector (a trial found them raw)."""
    view = View(title="Buraco · **Bia**", lines=["Dupla 2 (**Bia**, Dé ||x||)",
                                                  "Vez de @everyone.", "Lixo: 7♥"])
    msg = table_message(view)
    assert msg.title == "Buraco · \\*\\*Bia\\*\\*"
    assert msg.description.split("\n") == [
        "Dupla 2 (\\*\\*Bia\\*\\*, Dé \\|\\|x\\|\\|)", "Vez de @\u200beveryone.",
        "Lixo: 7♥\ufe0f"]
    assert text_message("<@123456789012345678> voltou ao jogo.") == (
        "<@\u200b123456789012345678> voltou ao jogo.")
