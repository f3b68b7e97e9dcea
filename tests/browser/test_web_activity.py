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
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chromium
import deal_flow
import deal_script as script
import pytest
import web_page as web
from bot_run import redis_url, run_bot, synced_fake, wait_for
from dc_play import (
    answered,
    card_options,
    deal_result,
    hand,
    my_hand,
    pick,
    press,
    title,
    until_changed,
)
from fake_discord import FakeDiscord
from fake_model import Person, snowflake
from fake_oauth import CLIENT_SECRET
from secrecy import assert_secret
from tg_emulator import free_port
from tg_side import SCRIPTED_BOT, WEB_SECRET, reachable

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


def table(fake: FakeDiscord) -> Any:
    return wait_for(lambda: next((m for m in fake.channel_messages()
                                  if title(m).startswith("Buraco com Morto · ")), None),
                    what="the table")


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
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    decks = tmp_path / "decks.json"
    decks.write_text(json.dumps([[c.code for c in script.deck()]]))
    with run_bot(fake, tmp_path, REDIS, argv=[str(SCRIPTED_BOT), "discord"],
                 WEB_PORT=str(port), WEB_LISTEN="127.0.0.1", WEB_PUBLIC_URL=base + "/",
                 WEB_SECRET=WEB_SECRET, SCRIPTED_DECKS=str(decks),
                 DISCORD_CLIENT_ID=str(fake.app_id), DISCORD_CLIENT_SECRET=CLIENT_SECRET,
                 DISCORD_ACTIVITY="1"):
        wait_for(lambda: reachable(base), timeout=30, what="the web server")
        answered(fake, fake.slash(ana, "novojogo", opcoes=script.PRESET))
        press(fake, bia, table(fake), "Entrar")
        press(fake, ana, table(fake), "Iniciar")
        wait_for(lambda: "Minha mão" in table(fake).labels() or None, what="the game")
        # "Abrir a mesa" on Ana's hand launches the Activity (LAUNCH_ACTIVITY, type 12)
        ana_hand = my_hand(fake, ana, on=table(fake))
        assert not [b for b in ana_hand.buttons() if b.get("url")]  # no signed link
        launch = press(fake, ana, ana_hand, "Abrir a mesa")
        assert launch.answer_type == 12
        instance = fake.oauth.open_instance([ana.user_id, bia.user_id])

        # Ana, through Discord's URL mapping with and without the /.proxy/ prefix
        used = ""
        for prefix in ("/.proxy", ""):
            used = fake.oauth.issue(ana.as_user())
            page, wire = activity(new_page, f"{base}{prefix}/activity", used, instance)
            web.wait_live(page)
            assert sorted(web.hand_codes(page)) == sorted(script.ANA_HAND)
            sessions = [u for u, _b in wire.bodies if u.endswith("/api/session")]
            assert sessions == [f"{base}{prefix}/api/session"]
            assert {u for u, _f in wire.frames} == {f"ws://127.0.0.1:{port}{prefix}/ws"}
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


class DiscordSide:
    """Bia playing with her ephemeral hand's components (:class:`deal_flow.ChatSide`)."""

    def __init__(self, fake: FakeDiscord, person: Person) -> None:
        self.fake, self.person = fake, person

    def _hand_with(self, label: str) -> Any:
        try:
            return wait_for(lambda: (lambda h: h if h is not None and h.button(label)
                                     else None)(hand(self.fake, self.person)),
                            timeout=5, what=f"{label} on Bia's hand")
        except AssertionError:  # her hand could not be updated: "Minha mão" again
            return my_hand(self.fake, self.person, on=table(self.fake))

    def press(self, label: str, wait: bool = True) -> float:
        shown = self._hand_with(label)
        started = time.monotonic()
        press(self.fake, self.person, shown, label)
        return started

    def pick(self, codes: list[str]) -> None:
        for code in codes:
            current = hand(self.fake, self.person)
            assert current is not None
            labels = [str(o["label"]).replace("\ufe0f", "") for _s, o in card_options(current)]
            pick(self.fake, self.person, current, labels.index(str(script.Card.parse(code))))
            until_changed(self.fake, self.person, current)

    def settle(self) -> None:
        """Nothing: each press waited for its answer."""


def test_a_whole_deal_on_the_activity_at_360x640_every_action_in_view(
        fake: FakeDiscord, people: list[Person], tmp_path: Path, new_page: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    ana, bia = people
    assert REDIS is not None
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    decks = tmp_path / "decks.json"
    decks.write_text(json.dumps([[c.code for c in script.deck()]]))
    with run_bot(fake, tmp_path, REDIS, argv=[str(SCRIPTED_BOT), "discord"],
                 WEB_PORT=str(port), WEB_LISTEN="127.0.0.1", WEB_PUBLIC_URL=base + "/",
                 WEB_SECRET=WEB_SECRET, SCRIPTED_DECKS=str(decks),
                 DISCORD_CLIENT_ID=str(fake.app_id), DISCORD_CLIENT_SECRET=CLIENT_SECRET):
        wait_for(lambda: reachable(base), timeout=30, what="the web server")
        answered(fake, fake.slash(ana, "novojogo", opcoes=script.PRESET))
        press(fake, bia, table(fake), "Entrar")
        press(fake, ana, table(fake), "Iniciar")
        wait_for(lambda: "Minha mão" in table(fake).labels() or None, what="the game")
        my_hand(fake, bia, on=table(fake))
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
