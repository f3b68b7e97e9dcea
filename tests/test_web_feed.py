"""Version announcements (issue 27, DESIGN "The web table"): every save that wins says
"game G is at version V" on the game's channel, on the in-memory store, fakeredis and
a real Redis; a feed hears only the games it follows, and a save that lost its race
announces nothing."""

from __future__ import annotations

from typing import Any

from test_service_support import ANA, BIA, CHAT, Backend, FakeClock, game_of, make_service

from bot.effects import pack


async def heard(feed: Any, timeout_s: float = 1.0) -> list[tuple[str, int]]:
    """Every announcement the feed holds now (waiting up to ``timeout_s`` for the first)."""
    out: list[tuple[str, int]] = []
    got = await feed.next(timeout_s)
    while got is not None:
        out.append(got)
        got = await feed.next(0.05)
    return out


async def test_every_won_save_announces_its_version(backend: Backend,
                                                    clock: FakeClock) -> None:
    store = backend.make()
    svc = make_service(store, clock)
    await svc.new_game(CHAT, ANA, "buraco")
    gid = await store.chat_game(CHAT.key)
    feed = backend.make().version_feed()
    other = backend.make().version_feed()
    try:
        await feed.follow(gid)
        await other.follow("zzzzzzzz")
        await svc.join(CHAT, BIA)  # version 2
        await svc.start(CHAT, ANA)  # version 3
        assert await heard(feed) == [(gid, 2), (gid, 3)]
        version, game = await game_of(store)
        assert version == 3
        ver = game.seats[0].ver
        # a hand button press (select a card): a save, so announced too
        await svc.press(ANA, pack(gid, ver, "t", 0))
        assert await heard(feed) == [(gid, 4)]
        # a stale press saves nothing and announces nothing
        await svc.press(ANA, pack(gid, ver - 1, "c", ""))
        assert await heard(feed, 0.2) == []
        assert await heard(other, 0.2) == []
        await feed.drop(gid)
        await svc.press(ANA, pack(gid, ver, "u", 0))
        assert await heard(feed, 0.2) == []
    finally:
        await feed.close()
        await other.close()


async def test_new_game_announces_version_one(backend: Backend, clock: FakeClock) -> None:
    store = backend.make()
    feed = store.version_feed()
    try:
        svc = make_service(store, clock)
        # follow every game id the service will make: patch the id maker
        import bot.service as service_mod

        real = service_mod.new_game_id
        service_mod.new_game_id = lambda: "gamefeed"
        try:
            await feed.follow("gamefeed")
            await svc.new_game(CHAT, ANA, "buraco")
        finally:
            service_mod.new_game_id = real
        assert await heard(feed) == [("gamefeed", 1)]
    finally:
        await feed.close()


async def test_feed_without_games_waits_quietly(backend: Backend) -> None:
    feed = backend.make().version_feed()
    try:
        assert await feed.next(0.05) is None
    finally:
        await feed.close()
