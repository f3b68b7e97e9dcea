"""Issue 30, "a player, in the terminal": ``make play`` installs only what playing needs
and shows the first table at once, on the pure-Python engine; the compiled engine is
built apart (``make native``, ``make venv``, ``make test``), never in front of the first
game. The time to the first table on a clean clone is a figure of ``bench/first_table.py``
(README "Try it"), not a timed test."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from pty_support import ROOT, Terminal

sys.path.insert(0, str(ROOT / "tools"))
from play_requirements import name_of, play_requirements

CHAT_MODULES = ("telegram", "discord", "aiohttp", "httpx", "tornado", "matplotlib",
                "prometheus_client")
TEST_TOOLS = ("mypy", "mypyc", "pytest", "hypothesis", "setuptools")
needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def dry_run(target: str) -> str:
    """The commands ``make -n -B target`` would run (every target taken as out of date:
    a clean clone), without the "Entering directory" lines a make started under
    ``make test`` (as CI runs it) would add."""
    done = subprocess.run(["make", "--no-print-directory", "-n", "-B", target], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return done.stdout


@needs_make
def test_make_play_installs_the_play_requirements_and_builds_nothing() -> None:
    commands = dry_run("play")
    assert "tools/play_requirements.py" in commands
    assert commands.rstrip().endswith(".venv/bin/python -m bot play")
    assert "build_native" not in commands  # no compiled engine before the first table
    assert "[test]" not in commands and "npm" not in commands


@needs_make
def test_make_test_and_make_venv_still_install_and_build_everything() -> None:
    for target in ("test", "venv"):
        commands = dry_run(target)
        # the browser extra too: `make test` runs the browser suite (issue 34)
        assert "install --disable-pip-version-check --quiet -e '.[test,browser]'" in commands
        assert "tools/build_native.py" in commands
    assert "npm ci" in dry_run("test")
    assert "tools/build_native.py --force" in dry_run("native")


def test_play_requirements_are_the_dependencies_without_the_chat_libraries() -> None:
    with (ROOT / "pyproject.toml").open("rb") as fh:
        every = tomllib.load(fh)["project"]["dependencies"]
    names = [name_of(dep) for dep in play_requirements()]
    assert [name_of(dep) for dep in every if dep not in play_requirements()] == [
        "python-telegram-bot", "discord.py", "prometheus_client", "aiohttp", "matplotlib"]
    assert {"pydantic", "orjson", "zstandard", "pydantic-settings", "redis", "fakeredis",
            "rich", "babel"} <= set(names)
    assert "fakeredis[lua]>=2.23,<3" in play_requirements()  # the embedded store's Lua


def test_a_terminal_game_imports_no_chat_library_nor_test_tool(tmp_path: Path) -> None:
    """What ``python -m bot play`` imports from the start to the first table and a quit:
    none of what tools/play_requirements.py leaves out, so the play install suffices."""
    loaded = tmp_path / "modules.txt"
    wrapper = ("import atexit, runpy, sys\n"
               f"atexit.register(lambda: open({str(loaded)!r}, 'w').write("
               "'\\n'.join(sorted(sys.modules))))\n"
               "sys.argv = ['bot', 'play', '--pause', '0', '--robos', 'facil']\n"
               "runpy.run_module('bot', run_name='__main__', alter_sys=True)\n")
    term = Terminal([sys.executable, "-c", wrapper])
    term.expect("Sua mão")
    term.expect("> ")
    term.type("q")
    term.expect("(s/n)")
    term.type("s")
    assert term.close() == 0
    roots = {name.split(".")[0] for name in loaded.read_text().split()}
    assert "rich" in roots and "fakeredis" in roots and "engine" in roots
    assert roots.isdisjoint(CHAT_MODULES + TEST_TOOLS)


@pytest.fixture(scope="module")
def play_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv holding what ``make play`` installs and nothing more (the project itself
    is not installed: it runs from the source tree); its ``bin/python``."""
    base = tmp_path_factory.mktemp("play-venv")
    subprocess.run([sys.executable, "-m", "venv", str(base / "venv")], check=True)
    python = base / "venv" / "bin" / "python"
    requirements = base / "play-requirements.txt"
    requirements.write_text("".join(f"{dep}\n" for dep in play_requirements()))
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                           "--disable-pip-version-check", "-r", str(requirements)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return python


@pytest.mark.install
@pytest.mark.parametrize(("argv", "package"), [
    (["telegram"], "python-telegram-bot"), (["discord"], "discord.py"),
    (["discord", "--sync"], "discord.py"), (["serve"], "python-telegram-bot")])
def test_a_chat_command_in_the_play_venv_says_what_to_install_and_exits_2(
        play_venv: Path, argv: list[str], package: str, tmp_path: Path) -> None:
    """The operator trial's O1, as the README's reader met it: ``make play``, then
    ``.venv/bin/python -m bot telegram`` (tests/test_missing_packages.py checks every
    subcommand in process)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "PYTHONPATH")}
    env.update(LANG="C.UTF-8", PYTHONPATH=str(ROOT), BURACO_NATIVE="0",
               TELEGRAM_TOKEN="123:abc", DISCORD_TOKEN="x")
    done = subprocess.run([str(play_venv), "-m", "bot", *argv], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"python -m bot {argv[0]} precisa do pacote Python {package}, que não está "
        "instalado: instale o bot com pip install . (numa cópia do repositório: make "
        "venv)\n")


@needs_make
def test_the_readme_installs_the_chat_libraries_before_it_runs_the_bot() -> None:
    """The operator trial's O1: "Run it for your group" ran ``.venv/bin/python -m bot
    telegram`` in the venv of ``make play``, which has no chat library. Its steps now
    start with ``make venv``, which installs the whole project."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    run = text[text.index("## Run it for your group"):]
    assert "make venv" in run
    assert run.index("make venv") < run.index(".venv/bin/python -m bot")
    assert "-e '.[test,browser]'" in dry_run("venv")  # every [project] dependency, chat included


QUESTION = "Sair da partida? (s/n) "
needs_bash = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


def make_play_in_a_shell(tmp_path: Path) -> Terminal:
    """An interactive bash on a terminal (job control: it gives ``make`` a process group
    of its own, in the foreground), running ``make play`` on this interpreter's
    environment (``BIN``) with its install taken as done (``PLAY_STAMP``, newer than
    pyproject.toml), the robots' pause off; returned at the game's first prompt."""
    stamp = tmp_path / "installed-play"
    stamp.touch()
    term = Terminal(["bash", "--norc", "--noprofile", "-i"], controlling=True,
                    env={"PS1": "$ "})
    term.expect("$ ")
    term.type(f"make --no-print-directory play BIN={Path(sys.executable).parent} "
              f"PLAY_STAMP={stamp} ARGS='--pause 0 --players 2'")
    term.expect("> ")
    time.sleep(0.5)  # a person reads the prompt (readline is waiting for a key)
    return term


def quit_and_exit_code(term: Terminal) -> int:
    """``q``, ``s`` at the game's prompt, then the shell's ``$?`` for ``make play``."""
    term.type("q")
    term.expect(QUESTION)
    term.type("s")
    term.expect("Até a próxima!")
    term.expect("$ ")
    term.type('echo "make play exited: $?"')
    term.expect('"make play exited: $?"')  # the line typed, echoed back
    code = int(term.expect("\n$ ").split("make play exited: ")[1])
    term.type("exit")
    term.close()
    return code


@needs_make
@needs_bash
def test_make_play_exits_0_after_a_ctrl_c_the_game_handled(tmp_path: Path) -> None:
    """Issue 38: the terminal sends Ctrl-C to make too, which waited for the game and
    then killed itself with the SIGINT: 130 where ``python -m bot play`` exits 0 with the
    same keys (Ctrl-C, ``n``, ``q``, ``s``). The game now takes the terminal's
    foreground for itself (adapters.console.tty.own_foreground)."""
    term = make_play_in_a_shell(tmp_path)
    try:
        term.ctrl_c()
        term.expect(QUESTION)
        term.type("n")
        term.expect("A partida continua.")
        term.expect("> ")
        assert quit_and_exit_code(term) == 0
        assert "Traceback" not in term.text
    finally:
        if term.proc.poll() is None:
            term.close(timeout=0)


@needs_make
@needs_bash
def test_ctrl_z_under_make_play_still_suspends_the_whole_job_and_fg_resumes_it(
        tmp_path: Path) -> None:
    """Ctrl-Z stops make and the game together (the shell says "Stopped"), as before the
    game took the foreground; ``fg`` continues both and the game plays on."""
    term = make_play_in_a_shell(tmp_path)
    try:
        os.write(term.master, b"\x1a")  # Ctrl-Z
        stopped = term.expect("$ ", timeout=15)
        assert "Stopped" in stopped and "make --no-print-directory play" in stopped
        term.type("fg")
        time.sleep(0.5)
        assert quit_and_exit_code(term) == 0
    finally:
        if term.proc.poll() is None:
            term.close(timeout=0)
