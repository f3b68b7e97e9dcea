"""The code examples of ``docs/`` and README run (issue 14: ``docs/engine-api.md``
documented a ``Meld.label`` that did not exist): every ``>>>`` example is a doctest,
every other ``python`` block runs, every ``json`` block parses."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest

from bot import SystemClock
from bot.memstore import MemoryStore

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([*(ROOT / "docs").glob("*.md"), ROOT / "README.md"])
FENCE = re.compile(r"^ *```(\w*)\n(.*?)^ *```", re.S | re.M)


def blocks(lang: str) -> list[tuple[str, str]]:
    """``(page:line, code)`` of every fenced block tagged ``lang``."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if m.group(1) == lang:
                line = text.count("\n", 0, m.start()) + 1
                found.append((f"{page.relative_to(ROOT)}:{line}", m.group(2)))
    return found


@pytest.mark.parametrize("page", [p for p in PAGES if ">>>" in p.read_text(encoding="utf-8")],
                         ids=lambda p: p.name)
def test_doctest_examples_of_the_docs_run(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, encoding="utf-8",
                              optionflags=doctest.ELLIPSIS)
    assert (result.failed, result.attempted > 0) == (0, True)


@pytest.mark.parametrize("page", sorted({w.split(":")[0] for w, c in blocks("python")
                                          if ">>>" not in c}))
def test_python_blocks_of_the_docs_run(page: str) -> None:
    """A page's plain ``python`` blocks run in order in one namespace (as a reader would
    type them), with a ``store`` and a ``clock`` for the service examples."""
    clock = SystemClock()
    namespace = {"store": MemoryStore(clock), "clock": clock}
    for where, code in blocks("python"):
        if where.startswith(page + ":") and ">>>" not in code:
            exec(compile(code, where, "exec"), namespace)


@pytest.mark.parametrize(("where", "code"), blocks("json"), ids=lambda x: x)
def test_json_blocks_of_the_docs_parse(where: str, code: str) -> None:
    assert isinstance(json.loads(code), dict | list), where


def test_engine_api_names_only_what_exists() -> None:
    """The attribute Meld.label the page once named is gone from it, and every
    ``engine.X`` import in its examples resolves (the doctest above runs them)."""
    text = (ROOT / "docs" / "engine-api.md").read_text(encoding="utf-8")
    assert "`.label`" not in text and "canastra_label(meld, rules)" in text
    assert text.count(">>> ") >= 30


def test_replay_commands_of_the_docs_succeed(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.__main__ import main

    monkeypatch.chdir(ROOT)
    commands = [line.split("#")[0].split()[3:] for _w, code in blocks("sh")
                for line in code.splitlines() if "python -m engine replay" in line]
    assert commands and all(main(args) == 0 for args in commands), commands


def _section(text: str, title: str) -> str:
    """The body of the markdown section ``title`` (up to the next heading of its level)."""
    start = text.index(title)
    level = title.split(" ")[0]
    rest = text[start + len(title):]
    end = re.search(rf"^{level} ", rest, re.M)
    return rest[: end.start()] if end else rest


def test_readme_is_player_first_and_keeps_the_two_commands() -> None:
    """Issue 30 "Whoever runs the bot": what it is, the two commands CI and a newcomer
    run, then "Run it for your group" with Telegram and Discord in numbered steps; the
    internals (workers, leases, build locks, manifests) live in docs/."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings[:2] == ["Try it: two commands", "Playing in the terminal"], headings
    assert "Run it for your group" in headings
    intro = text.split("## Try it")[0]
    assert re.search(r"!\[[^\]]+\]\(docs/img/[\w-]+\.png\)", intro), "a picture first"
    two = _section(text, "## Try it: two commands")
    assert "make play" in two and "make test" in two
    run = _section(text, "## Run it for your group")
    for platform in ("### Telegram", "### Discord"):
        assert re.search(r"^1\. .*\n(.*\n)*^2\. ", _section(run, platform), re.M), platform
    lowered = text.lower()
    for internal in ("lease", "manifest", ".native.lock", "mypyc", "stateless",
                     "crash", "build lock", "shard"):
        assert internal not in lowered, internal


def test_the_facts_moved_out_of_the_readme_are_in_docs() -> None:
    """What left the README is kept: the compiled engine, the tests and the layout in
    docs/development.md; settings, Procfile and crashes in docs/operator.md."""
    dev = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    ops = (ROOT / "docs" / "operator.md").read_text(encoding="utf-8")
    for fact in ("`.native/manifest.json`", "(`.native.lock`)", "`.native-failed.json`",
                 "make test-pure", "-m reliability", "telegram-test-api", "## Layout"):
        assert fact in dev, fact
    for fact in ("STATE_CODEC", "TURN_TIMER_S", "10 to 86400, default 90", "Procfile",
                 "up to 10 s", "SIGTERM", "pip install"):
        assert fact in ops, fact


def test_the_pages_the_readme_names_exist() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"(docs/[\w./-]+\.(?:md|png))", text))
    assert "docs/operator.md" in named and "docs/development.md" in named
    assert [p for p in sorted(named) if not (ROOT / p).exists()] == []


def test_the_operator_guide_gives_the_recipe_the_code_agrees_with() -> None:
    """docs/operator.md: production install without the test extras, Redis with
    ``appendonly yes``, a systemd unit that does not restart on the bad-setting exit
    code, the Procfile's process types, upgrading and backing up, STATE_CODEC explained."""
    from bot.startup import EXIT_SETTING

    text = (ROOT / "docs" / "operator.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, re.M)
    for part in ("Install", "Settings", "Redis", "systemd", "Procfile hosts", "Upgrading",
                 "Backing up"):
        assert part in headings, part
    assert "appendonly yes" in _section(text, "## Redis")
    unit = _section(text, "## systemd")
    assert f"RestartPreventExitStatus={EXIT_SETTING}" in unit
    assert "ExecStart=/opt/buraco/venv/bin/python -m bot serve" in unit
    procfile = (ROOT / "Procfile").read_text(encoding="utf-8")
    for kind in re.findall(r"^(\w+):", procfile, re.M):
        assert f"`{kind}`" in _section(text, "## Procfile hosts"), kind
    assert "**`STATE_CODEC` in plain words.**" in _section(text, "## Upgrading")


def test_the_operator_guide_names_every_runtime_dependency() -> None:
    """The operator trial's O3: the guide's list of what ``pip install .`` brings left
    out matplotlib, prometheus_client and aiohttp. Each ``[project] dependencies`` name
    of pyproject.toml is in the "Install" section, in backquotes, and nothing else is
    named as one."""
    import tomllib

    with (ROOT / "pyproject.toml").open("rb") as fh:
        deps = tomllib.load(fh)["project"]["dependencies"]
    names = {re.match(r"[A-Za-z0-9._-]+", dep).group(0) for dep in deps}  # type: ignore[union-attr]
    install = _section((ROOT / "docs" / "operator.md").read_text(encoding="utf-8"),
                       "## Install")
    listed = install[install.index("`pip install .` installs"):install.index("The test tools")]
    assert set(re.findall(r"`([A-Za-z0-9._-]+)`", listed)) == names
