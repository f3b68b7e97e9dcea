"""Issue 30 "Whoever runs the bot", the operator trial's O1: a venv made by ``make play``
holds only the terminal game's packages (tools/play_requirements.py), and a chat command
run from it (README "Run it for your group") answers with one line in the operator's
language naming the package and how to install it, exit 2 (a bad setup,
docs/operator.md "Exit codes"), never a traceback. Every subcommand of
``python -m bot --help`` is checked here, in process, with the chat libraries hidden as
in such a venv; tests/test_make_play.py (marker ``install``) does it in a real one."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from adapters import logsafe
from bot import __main__ as cli
from bot.i18n import Translator
from bot.startup import (
    CHAT_PACKAGES,
    PLATFORM_PACKAGES,
    Words,
    exit_code,
    setup_error,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from play_requirements import CHAT_ONLY

HIDDEN = ("telegram", "discord", "aiohttp", "prometheus_client", "matplotlib")
NAMES = ("REDIS_URL", "TELEGRAM_TOKEN", "DISCORD_TOKEN", "WEB_PORT", "METRICS_PORT",
         "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
INSTALL = "instale o bot com pip install . (numa cópia do repositório: make venv)"


def needs(command: str, package: str) -> str:
    return (f"python -m bot {command} precisa do pacote Python {package}, que não está "
            f"instalado: {INSTALL}\n")


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setattr(Words, "_", Translator("pt"))  # as main() leaves it for pt-BR
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TELEGRAM_TOKEN", "123:abc")
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    yield
    logsafe.uninstall()


def hide(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make ``modules`` not installed for this test (an import of one raises
    ``ModuleNotFoundError``, ``importlib.util.find_spec`` finds none)."""
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


def subcommands() -> set[str]:
    parser = cli.build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return set(action.choices)


CHAT = {"telegram": "python-telegram-bot", "discord": "discord.py",
        "serve": "python-telegram-bot"}
"""The commands that need a chat library, and the package each names first."""
LEAN = {"play", "ratings-rebuild"}
"""The commands ``make play``'s venv runs (the terminal game; the ratings over the store)."""


def test_every_subcommand_is_either_a_chat_one_or_runs_from_the_play_venv() -> None:
    """A new subcommand gets its place here, so it is checked below."""
    assert subcommands() == set(CHAT) | LEAN


@pytest.mark.parametrize("command", sorted(CHAT))
def test_a_chat_command_without_its_library_says_what_to_install_and_exits_2(
        command: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    hide(monkeypatch, *HIDDEN)
    assert cli.main([command]) == 2
    assert capsys.readouterr() == ("", needs(command, CHAT[command]))


def test_discord_sync_without_discord_py_says_so_too(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    hide(monkeypatch, *HIDDEN)
    assert cli.main(["discord", "--sync", "--guild", "1"]) == 2
    assert capsys.readouterr().err == needs("discord", "discord.py")


@pytest.mark.parametrize(("module", "package"), list(CHAT_PACKAGES))
def test_each_library_the_chat_needs_beside_the_platform_s_is_checked(
        module: str, package: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The web table's and the metrics' server, the match pictures: missing any one
    stops the start, before a group meets it in the middle of a game."""
    hide(monkeypatch, module)
    assert cli.main(["telegram"]) == 2
    assert capsys.readouterr().err == needs("telegram", package)


def test_serve_asks_only_for_the_platforms_whose_token_is_set(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("TELEGRAM_TOKEN")
    hide(monkeypatch, "telegram", "discord")
    assert cli.main(["serve"]) == 2
    assert capsys.readouterr().err == needs("serve", "discord.py")


def test_the_lines_speak_the_operator_s_language(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    hide(monkeypatch, *HIDDEN)
    assert cli.main(["discord"]) == 2
    assert capsys.readouterr().err == (
        "python -m bot discord needs the Python package discord.py, which is not "
        "installed: install the bot with pip install . (in a checkout of the repository: "
        "make venv)\n")


def test_ratings_rebuild_runs_without_the_chat_libraries(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    hide(monkeypatch, *HIDDEN)
    assert cli.main(["ratings-rebuild"]) == 0
    assert capsys.readouterr().out == "Ratings recalculados de 0 partidas.\n"


def test_the_packages_checked_are_those_make_play_leaves_out() -> None:
    """tools/play_requirements.py's list and the start-up check are one list: a library
    the chat gains and ``make play`` leaves out is checked at start-up too."""
    checked = {dist for _module, dist in CHAT_PACKAGES} | {
        dist for _module, dist in PLATFORM_PACKAGES.values()}
    assert checked == set(CHAT_ONLY)


def test_a_missing_module_met_later_in_the_start_is_one_line_and_exit_2() -> None:
    """What the check before the start cannot see (a dependency of a dependency) is
    still told as a missing package, never as a traceback."""
    err = ModuleNotFoundError("No module named 'numpy.linalg'", name="numpy.linalg")
    assert setup_error(err) == f"Falta o pacote Python numpy: {INSTALL}"
    assert exit_code(err) == 2
