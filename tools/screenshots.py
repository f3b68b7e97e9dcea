"""The pictures of the player's guide (docs/img/): a real table on each platform.

Usage: ``python tools/screenshots.py [--only telegram|discord|season] [--out docs/img]``

It plays the start of a deal with the real bot process against the test harnesses — the
Telegram Bot API emulator of ``tests/e2e`` (needs ``npm ci``) and the fake Discord of
``tests/discord`` (needs the Redis at ``REDIS_URL``; its keys are deleted afterwards) —
captures what a person sees (the group's table and Ana's hand: the message text and its
inline buttons on Telegram, the embed and its components on Discord) and draws each as
a chat shows it, with :mod:`tools.chatdraw` (Pillow, the ``docs`` extra). Nothing in the
pictures is made up: every text and button is the bot's own.

Files: ``telegram-lobby.png``, ``telegram-table.png``, ``telegram-hand.png``,
``discord-lobby.png``, ``discord-table.png``, ``discord-hand.png``; and the tournament
picture a group gets after a round (issue 38), ``torneio.png``, ``torneio.en.png``,
``torneio.it.png``: drawn by the bot's own code (:func:`bot.season.tournament.picture.
board_of`) from a sample knockout record (its names and scores are the sample's).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for harness in ("tests/e2e", "tests/discord", "tools"):
    sys.path.insert(0, str(ROOT / harness))

import chatdraw  # noqa: E402

TURNS = 3  # turns each person plays before the pictures (robots play theirs)


def telegram(out: Path) -> list[Path]:
    """Ana and Bia with two robots on the emulator, on the embedded store."""
    from tg_emulator import Group, Person, run_bot, start_emulator, wait_for

    group = Group(-4001, "Amigos do Buraco")
    ana, bia = Person(11, "Ana"), Person(12, "Bia")

    def table() -> Any:
        return wait_for(lambda: (emu.messages(group.chat_id) or [None])[0], what="the table")

    def hand(person: Person) -> Any:
        found = [m for m in emu.messages(person.user_id) if m.text.startswith("<b>Sua mão")]
        return found[0] if found else None

    def changed(before: Any, fetch: Any) -> Any:
        return wait_for(lambda: (lambda m: m if m and (m.text, m.keyboard) != (
            before.text, before.keyboard) else None)(fetch()), what="a change")

    def turn(person: Person) -> bool:
        current = hand(person)
        if current is None or current.button("Comprar do monte") is None:
            return False
        emu.press(person, current, "Comprar do monte")
        current = changed(current, lambda: hand(person))
        emu.press(person, current, current.keyboard[0][0]["text"])
        current = changed(current, lambda: hand(person))
        emu.press(person, current, "Descartar")
        changed(current, lambda: hand(person))
        return True

    with tempfile.TemporaryDirectory() as work, start_emulator("4242:SHOTS") as emu, \
            run_bot(emu, Path(work), AI_PACE_S="0.2"):
        for person in (ana, bia):
            emu.command_in_private(person, "/start")
        emu.command_in_group(group, ana, "/novojogo")
        lobby = table()
        emu.press(bia, lobby, "Entrar")
        lobby = changed(lobby, table)
        for _ in range(2):
            emu.press(ana, lobby, "Robô")
            lobby = changed(lobby, table)
        shots = [chatdraw.telegram_png(lobby.text, lobby.keyboard, group.title,
                                       out / "telegram-lobby.png")]
        emu.press(ana, lobby, "Iniciar")
        played = {ana.first_name: 0, bia.first_name: 0}
        while min(played.values()) < TURNS:
            moved = False
            for person in (ana, bia):
                if played[person.first_name] < TURNS and turn(person):
                    played[person.first_name] += 1
                    moved = True
            if not moved:
                time.sleep(0.1)
        mine = wait_for(lambda: (lambda h: h if h and h.button("Comprar do monte") else None)(
            hand(ana)), timeout=60, what="Ana's turn")
        emu.press(ana, mine, "Comprar do monte")
        mine = changed(mine, lambda: hand(ana))
        for card in (0, 1):
            emu.press(ana, mine, mine.keyboard[0][card]["text"])
            mine = changed(mine, lambda: hand(ana))
        time.sleep(4)  # the group's table is edited at most every 3 s: let it settle
        board = table()
        shots.append(chatdraw.telegram_png(board.text, board.keyboard, group.title,
                                           out / "telegram-table.png"))
        shots.append(chatdraw.telegram_png(mine.text, mine.keyboard, "Buraco Bot",
                                           out / "telegram-hand.png"))
    return shots


def discord(out: Path) -> list[Path]:
    """Ana and Bia with two robots on the fake Discord, on the Redis at ``REDIS_URL``."""
    from bot_run import forget, redis_url, run_bot, sync_commands, wait_for
    from dc_play import answered, can_draw, hand, pick, play_turn, press, table, until_changed
    from fake_discord import start_fake
    from fake_model import Person, snowflake

    url = redis_url()
    if url is None:
        raise SystemExit("the Discord pictures need a Redis at REDIS_URL")
    ana, bia = Person(snowflake(), "Ana"), Person(snowflake(), "Bia")
    with tempfile.TemporaryDirectory() as work, start_fake("shots-token", [ana, bia]) as fake:
        try:
            sync_commands(fake, Path(work), url)
            with run_bot(fake, Path(work), url):
                answered(fake, fake.slash(ana, "novojogo", opcoes="timer=90"))
                press(fake, bia, table(fake), "Entrar")
                for _ in range(2):
                    press(fake, ana, table(fake), "Robô")
                lobby = wait_for(lambda: (lambda t: t if t.text().count("Robô") >= 2
                                          else None)(table(fake)), what="the full lobby")
                shots = [chatdraw.discord_png(lobby, out / "discord-lobby.png")]
                press(fake, ana, table(fake), "Iniciar")
                wait_for(lambda: table(fake).labels() == ["Minha mão"] or None,
                         what="the game's table")
                for person in (ana, bia):
                    press(fake, person, table(fake), "Minha mão")
                played = {ana.name: 0, bia.name: 0}
                while min(played.values()) < TURNS:
                    moved = False
                    for person in (ana, bia):
                        if played[person.name] < TURNS and play_turn(fake, person):
                            played[person.name] += 1
                            moved = True
                    if not moved:
                        time.sleep(0.1)
                mine = wait_for(lambda: (lambda h: h if can_draw(h) else None)(
                    hand(fake, ana)), timeout=60, what="Ana's turn")
                press(fake, ana, mine, "Comprar do monte")
                mine = until_changed(fake, ana, mine)
                for card in (0, 1):
                    pick(fake, ana, mine, card)
                    mine = until_changed(fake, ana, mine)
                time.sleep(4)  # table edits go at most every 3 s: let it settle
                shots.append(chatdraw.discord_png(table(fake), out / "discord-table.png"))
                shots.append(chatdraw.discord_png(mine, out / "discord-hand.png",
                                                  only_you=True))
        finally:
            forget(url, fake)
    return shots


def season(out: Path) -> list[Path]:
    """The tournament picture of a sample knockout of eight, over, in each guide's
    language (a W.O., a double W.O. sending the better seed on, the champion)."""
    from bot.effects import ChatRef, PlayerRef
    from bot.i18n import Translator
    from bot.season.tournament import picture
    from bot.season.tournament.model import Match, Side, Tournament

    names = ["Ana", "Bia", "Caio", "Dani", "Eva", "Fábio", "Gil", "Hugo"]
    people = [PlayerRef(platform="tg", user_id=str(i), name=n) for i, n in enumerate(names)]
    scores = [(0, 7, (1520, 830), 0, []), (3, 4, (0, 0), 3, [4]), (1, 6, (0, 0), 1, [1, 6]),
              (2, 5, (900, 1505), 5, []), (0, 3, (1610, 1240), 0, []),
              (1, 5, (1020, 1530), 5, []), (0, 5, (1550, 1180), 0, [])]
    rounds = [1, 1, 1, 1, 2, 2, 3]
    t = Tournament(id="guia", chat=ChatRef(platform="tg", chat_id="-1", title="Grupo"),
                   creator=people[0], status="over", knockout=True, preset="tranca",
                   sides=[Side(people=[p]) for p in people], champion=0,
                   matches=[Match(round=r, a=a, b=b, score=sc, winner=w, absent=ab)
                            for r, (a, b, sc, w, ab) in zip(rounds, scores, strict=True)])
    shots = []
    for lang, name in (("pt", "torneio.png"), ("en", "torneio.en.png"),
                       ("it", "torneio.it.png")):
        path = out / name
        path.write_bytes(picture.draw(picture.board_of(t, Translator(lang))))
        shots.append(path)
    return shots


def main(argv: list[str] | None = None) -> int:
    """Take the pictures; prints each file written. Exit 0 when all were taken."""
    parser = argparse.ArgumentParser(prog="python tools/screenshots.py",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("telegram", "discord", "season"))
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, take in (("telegram", telegram), ("discord", discord), ("season", season)):
        if args.only in (None, name):
            for path in take(args.out):
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
