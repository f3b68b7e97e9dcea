"""Helpers of the tournament tests (issue 29): press a tournament's buttons through the
service and play its called matches to their end."""

from __future__ import annotations

from season_support import play_to_end
from test_service_support import game_of

from adapters.storage import RedisStore
from bot.effects import ChatRef, Effect, PlayerRef, pack
from bot.season.tournament.followup import load
from bot.season.tournament.model import Tournament
from bot.service import Service


async def record(svc: Service, chat: ChatRef) -> Tournament:
    """The group's stored tournament."""
    assert svc.season is not None
    _v, t = await load(svc.season, chat.key)
    assert t is not None
    return t


async def press(svc: Service, chat: ChatRef, user: PlayerRef, code: str,
                arg: str | int = "") -> list[Effect]:
    """``user`` presses the tournament button ``code`` in ``chat``."""
    t = await record(svc, chat)
    return await svc.press(user, pack(t.id, 0, code, arg), chat=chat)


async def show_up_and_play(svc: Service, store: RedisStore, chat: ChatRef) -> list[Effect]:
    """Everyone of the called match presses "Estou aqui", and the match is played to its
    end; the effects of the whole."""
    t = await record(svc, chat)
    assert t.current is not None
    m = t.matches[t.current]
    people = [p for s in (m.a, m.b) if s is not None for p in t.sides[s].people]
    out: list[Effect] = []
    for person in people:
        out += await svc.press(person, pack(t.id, 0, "ta", t.current), chat=chat)
    gid = (await record(svc, chat)).matches[t.current].game
    assert gid is not None
    _v, game = await game_of(store, gid=gid)
    assert game.status == "playing"
    return out + await play_to_end(svc, store, gid, people[0])
