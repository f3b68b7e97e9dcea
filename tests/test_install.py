"""Issue 30 "Whoever runs the bot": the project installs for production with
``pip install .`` (no test extras, no compiler) into a fresh virtual environment, from
the files git tracks (as a clean clone has them), and runs from there:
``python -m bot --help``, a game against the robots on the embedded store, the
translations of every package. Marked ``install`` (a minute or two: a venv and a wheel
build); CI runs it with the rest (docs/operator.md "Install")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "bot", "adapters")
TEST_ONLY = ("pytest", "hypothesis", "mypy", "ruff", "pytest-asyncio")

pytestmark = pytest.mark.install


def tracked() -> list[str]:
    """The files git tracks (a clean clone's), relative to the root."""
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                         check=True).stdout.decode()
    return [name for name in out.split("\0") if name and (ROOT / name).is_file()]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the project installed by ``pip install .`` from a copy of the
    tracked files; its ``bin/python``."""
    base = tmp_path_factory.mktemp("install")
    clone = base / "clone"
    for name in tracked():
        (clone / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, clone / name)
    subprocess.run([sys.executable, "-m", "venv", str(base / "venv")], check=True)
    python = base / "venv" / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                           "--disable-pip-version-check", str(clone)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return python


def run(python: Path, *args: str, stdin: str = "", lang: str = "C.UTF-8",
        cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python args`` outside the checkout (so nothing is imported from it)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "REDIS_URL", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(LANG=lang, PYTHONIOENCODING="utf-8")
    return subprocess.run([str(python), *args], input=stdin, capture_output=True, text=True,
                          timeout=300, env=env, cwd=cwd or python.parent)


def test_no_test_tool_is_installed_and_the_bot_needs_none(installed: Path) -> None:
    done = run(installed, "-m", "pip", "list", "--format=freeze")
    names = {line.split("==")[0].lower() for line in done.stdout.splitlines()}
    assert {"pydantic", "redis", "python-telegram-bot", "discord.py"} <= names
    assert names.isdisjoint(TEST_ONLY), names & set(TEST_ONLY)


def test_python_m_bot_help_runs_from_the_installed_package(installed: Path) -> None:
    done = run(installed, "-m", "bot", "--help")
    assert done.returncode == 0, done.stderr
    # argparse's own words in pt-BR too: engine/locale/pt/LC_MESSAGES/argparse.po came
    # with the package (it was left out: "usage:" and "options:")
    assert done.stdout.startswith("uso: python -m bot [-h] COMANDO ...")
    assert "\nopções:\n" in done.stdout
    for command in ("play", "telegram", "discord", "serve"):
        assert command in done.stdout
    where = run(installed, "-c", "import bot; print(bot.__file__)").stdout
    assert "site-packages" in where, where


def test_a_game_against_a_robot_runs_on_the_embedded_store(installed: Path) -> None:
    """The terminal game as a person types it: draw from the stock, quit, confirm."""
    done = run(installed, "-m", "bot", "play", "--players", "2", "--pause", "0",
               "--robos", "facil", stdin="c\nq\ns\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Sua mão (11 cartas)" in out and "Sua mão (12 cartas)" in out
    assert "Você comprou do monte." in out and out.endswith("Até a próxima!\n")


def test_every_data_file_of_the_packages_is_installed(installed: Path) -> None:
    """Translations, the state dictionary...: what a package reads at run time."""
    site = Path(run(installed, "-c", "import bot, pathlib; "
                    "print(pathlib.Path(bot.__file__).parents[1])").stdout.strip())
    data = [name for name in tracked()
            if name.split("/")[0] in PACKAGES and not name.endswith(".py")]
    assert data and [name for name in data if not (site / name).is_file()] == []


def test_the_installed_command_lines_speak_italian(installed: Path) -> None:
    """engine/locale came with the package (it was left out: Italian help fell back to
    Portuguese)."""
    done = run(installed, "-m", "engine", "--help", lang="it_IT.UTF-8")
    assert "Motore del buraco" in done.stdout, done.stdout


def upgrade_commands() -> list[str]:
    """The shell lines of docs/operator.md's "Upgrading" recipe, as the ``buraco`` user
    runs them (``sudo -u buraco`` dropped)."""
    text = (ROOT / "docs" / "operator.md").read_text(encoding="utf-8")
    section = text[text.index("## Upgrading"):]
    block = section[section.index("```sh\n") + 6:section.index("```", section.index("```sh") + 5)]
    return [line.strip().removeprefix("sudo -u buraco ") for line in block.splitlines()
            if line.strip()]


def test_the_guide_s_upgrade_removes_a_module_the_release_deleted(installed: Path,
                                                                 tmp_path: Path) -> None:
    """The operator trial's O2: ``git pull`` then ``pip install /opt/buraco/src`` left
    ``build/`` and ``*.egg-info`` in the checkout and, from ``build/lib/``, a module the
    new release had deleted. The guide's recipe, run as written into the venv of this
    module (in /opt/buraco's place), installs a new module, removes it once a release
    deletes it, and leaves the checkout as git has it. Runs last: the venv ends as the
    other tests found it."""
    commands = upgrade_commands()
    assert commands[0] == "git -C /opt/buraco/src pull --ff-only"
    home, src = tmp_path, tmp_path / "src"
    for name in tracked():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)
    probe = src / "bot" / "zz_upgrade_probe.py"
    probe.write_text('"""Here in one release, deleted in the next."""\n', encoding="utf-8")
    git = ["git", "-C", str(src), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "a release"], check=True)
    site = installed.parents[1] / "lib"
    venv = installed.parents[1]

    def upgrade() -> None:
        for line in commands[1:]:  # the pull is the commits made here
            line = line.replace("/opt/buraco/venv", str(venv)).replace("/opt/buraco", str(home))
            if line.startswith("cd "):
                continue  # every line below runs in home
            done = subprocess.run(line, shell=True, cwd=home, capture_output=True,
                                  text=True, timeout=900)
            assert done.returncode == 0, (line, done.stderr[-3000:])

    upgrade()
    assert [p.name for p in site.glob("python*/site-packages/bot/zz_upgrade_probe.py")] == [
        "zz_upgrade_probe.py"]
    subprocess.run([*git, "rm", "-q", str(probe)], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "the next release"], check=True)
    upgrade()
    assert list(site.glob("python*/site-packages/bot/zz_upgrade_probe.py")) == []
    status = subprocess.run([*git, "status", "--porcelain", "--ignored"],
                            capture_output=True, text=True, check=True).stdout
    assert status == ""  # no build/, no *.egg-info in the checkout
