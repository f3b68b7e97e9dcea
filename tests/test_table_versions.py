"""With several workers, an older table view must not overwrite a newer one (issue 6
"any worker can take any update"; DESIGN "One button press")."""

from __future__ import annotations

import fakeredis
from test_service_support import ANA, BIA, CHAT, FakeClock, button, game_of, make_service

from adapters.telegram.refs import MessageRefs
from bot.effects import TableView
from bot.memstore import MemoryStore


async def test_table_effects_carry_the_stored_game_version() -> None:
    clock = FakeClock()
    store = MemoryStore(clock)
    svc = make_service(store, clock)
    first = await svc.new_game(CHAT, ANA, "buraco")
    table = next(e for e in first if isinstance(e, TableView))
    assert table.state_version == 0  # created, not saved over a version
    joined = await svc.press(BIA, button(table.view, "Entrar"))
    version, _game = await game_of(store)
    assert [e.state_version for e in joined if isinstance(e, TableView)] == [version]


async def test_an_older_table_version_is_not_shown_after_a_newer_one() -> None:
    refs = MessageRefs(fakeredis.FakeAsyncRedis(decode_responses=True), prefix="t")
    assert await refs.newest_table("g1", 5) is True
    assert await refs.newest_table("g1", 7) is True
    assert await refs.newest_table("g1", 6) is False  # a slower worker's stale table
    assert await refs.newest_table("g1", 7) is True  # the same state again is fine
    assert await refs.newest_table("g2", 1) is True
