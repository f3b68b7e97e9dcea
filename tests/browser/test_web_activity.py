"""The web table as a Discord Activity (issue 34, DESIGN "The table inside Discord") in
headless Chromium: the real bot process (``python -m bot discord`` with its web server
and ``DISCORD_CLIENT_ID``/``DISCORD_CLIENT_SECRET``) against the fake Discord, which
answers the OAuth2 token, ``/users/@me`` and Activity instance endpoints. The page runs
the vendored Embedded App SDK's ``DiscordSDKMock`` (no ``frame_id`` in its address),
whose ``authorize`` answers a code the fake issued: the server exchanges it and the page
is the person Discord says, at the channel's game, with and without the ``/.proxy/``
prefix. Forged, reused and other applications' codes are refused; a person outside the
instance only watches; with ``DISCORD_ACTIVITY`` the hand's "Abrir a mesa" answers with
``LAUNCH_ACTIVITY`` (the signed link without it: test_web_discord.py). Needs the Redis
at ``REDIS_URL``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chromium
import deal_flow
import deal_script as script
import pytest
import web_page as web
from bot_run import redis_url, synced_fake, wait_for
from dc_play import deal_result, press
from dc_side import DiscordSide, discord_web_bot, my_hand, start_two, table
from fake_discord import FakeDiscord
from fake_model import Person, snowflake
from fake_oauth import CLIENT_SECRET
from secrecy import assert_secret

TOKEN = "browser-activity-bot-token"
REDIS = redis_url()
FORGED = "Este link não é válido: abra a mesa pelo botão do jogo."

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(REDIS is None, reason="needs the Redis at REDIS_URL")]


@pytest.fixture
def people() -> list[Person]:
    return [Person(snowflake(), name) for name in ("Ana", "Bia")]


@pytest.fixture
def fake(people: list[Person], tmp_path: Path) -> Iterator[FakeDiscord]:
    assert REDIS is not None
    with synced_fake(TOKEN, people, tmp_path, REDIS) as server:
        yield server


def activity(new_page: Any, url: str, code: str, instance: str) -> tuple[Any, Any]:
    """The Activity's page at ``url``, its SDK mock answering ``authorize`` with
    ``code`` in the instance ``instance``."""
    page, wire = new_page(viewport=chromium.PHONE)
    page.add_init_script("window.BURACO_ACTIVITY_MOCK = "
                         + json.dumps({"code": code, "instance": instance}))
    page.goto(url)
    return page, wire


def test_the_activity_is_who_discord_says_at_the_channel_s_game_with_and_without_proxy(
        fake: FakeDiscord, people: list[Person], tmp_path: Path, new_page: Any) -> None:
    ana, bia = people
    assert REDIS is not None
    with discord_web_bot(fake, tmp_path, REDIS, DISCORD_CLIENT_ID=str(fake.app_id),
                         DISCORD_CLIENT_SECRET=CLIENT_SECRET, DISCORD_ACTIVITY="1") as base:
        start_two(fake, ana, bia)
        # "Abrir a mesa" on Ana's hand launches the Activity (LAUNCH_ACTIVITY, type 12)
        ana_hand = my_hand(fake, ana)
        assert not [b for b in ana_hand.buttons() if b.get("url")]  # no signed link
        launch = press(fake, ana, ana_hand, "Abrir a mesa")
        assert launch.answer_type == 12
        instance = fake.oauth.open_instance([ana.user_id, bia.user_id])

        # Ana, through Discord's URL mapping with and without the /.proxy/ prefix
        used, ws = "", base.replace("http://", "ws://", 1)
        for prefix in ("/.proxy", ""):
            used = fake.oauth.issue(ana.as_user())
            page, wire = activity(new_page, f"{base}{prefix}/activity", used, instance)
            web.wait_live(page)
            assert sorted(web.hand_codes(page)) == sorted(script.ANA_HAND)
            sessions = [u for u, _b in wire.bodies if u.endswith("/api/session")]
            assert sessions == [f"{base}{prefix}/api/session"]
            assert {u for u, _f in wire.frames} == {f"{ws}{prefix}/ws"}
        web.action(page, "c")  # her draw reaches the channel's table
        wait_for(lambda: "Monte: 59" in table(fake).text() or None, timeout=15,
                 what="the channel's table after Ana's draw on the Activity")

        # someone outside the instance watches: no hand, no seat
        caio = {"id": str(snowflake()), "username": "caio", "global_name": "Caio"}
        spy, spy_wire = activity(new_page, f"{base}/activity", fake.oauth.issue(caio),
                                 instance)
        web.wait_live(spy)
        assert spy.is_hidden("#hand-box") and web.actions(spy) == []
        views = [json.loads(f)["view"] for _u, f in spy_wire.frames
                 if json.loads(f)["type"] == "view"]
        assert views and all(v["spectator"] and v["hand"] is None for v in views)

        # a forged code, the used one again, another application's: refused, nothing sent
        other = fake.oauth.issue(bia.as_user(), client_id="999999999999")
        for code in ("forged-code", used, other):
            page, wire = activity(new_page, f"{base}/activity", code, instance)
            page.wait_for_selector("body[data-state=refused]", timeout=10_000)
            assert page.inner_text("#message").strip() == FORGED
            assert not wire.frames
        # Bia's code in an instance Discord does not know
        page, wire = activity(new_page, f"{base}/activity", fake.oauth.issue(bia.as_user()),
                              "i-unknown")
        page.wait_for_selector("body[data-state=refused]", timeout=10_000)
        assert not wire.frames
    assert [status for _c, status in fake.oauth.exchanged] == [200, 200, 200, 400, 400,
                                                               400, 200]


def test_a_whole_deal_on_the_activity_at_360x640_every_action_in_view(
        fake: FakeDiscord, people: list[Person], tmp_path: Path, new_page: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    ana, bia = people
    assert REDIS is not None
    with discord_web_bot(fake, tmp_path, REDIS, DISCORD_CLIENT_ID=str(fake.app_id),
                         DISCORD_CLIENT_SECRET=CLIENT_SECRET) as base:
        start_two(fake, ana, bia)
        my_hand(fake, bia)
        instance = fake.oauth.open_instance([ana.user_id, bia.user_id])
        page, wire = activity(new_page, f"{base}/.proxy/activity",
                              fake.oauth.issue(ana.as_user()), instance)
        web.wait_live(page)
        tap = web.tap
        taps = [0]

        def tap_and_check(p: Any, selector: str) -> None:
            tap(p, selector)
            web.assert_fits(page)
            taps[0] += 1
        monkeypatch.setattr(web, "tap", tap_and_check)
        deal_flow.play(page, DiscordSide(fake, bia), deal_flow.Watch(page))
        assert taps[0] >= 25
        page.wait_for_selector("body[data-status=between]", timeout=30_000)
        web.assert_fits(page)
        lines = [t.strip() for t in page.eval_on_selector_all(
            "#result p", "p => p.map(x => x.textContent)")]
        assert lines[0] == "Fim da mão 1." and lines[-1] == "Placar: 220 × -165"
        said = wait_for(lambda: deal_result(fake), what="the deal's result in the channel")
        for line in lines[1:]:
            assert line in said.replace("\ufe0f", ""), (line, said)
        assert_secret(wire, 0, script.replay())
