"""The compiled engine (issue 13): the loader's guard and native = pure.

``engine._native.activate`` must load a build only while its manifest matches the
sources, Python and mypy, and never with ``BURACO_NATIVE=0``; these tests drive it on a
small fake tree (no compiler needed). The last test plays seeded deals of every preset
in two processes, pure Python and compiled, and compares every action, event and state.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine import _native

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake project: ``engine/a.py`` and a build whose manifest matches it."""
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "a.py").write_text("X = 1\n")
    build = tmp_path / _native.DIR_NAME
    build.mkdir()
    (build / "manifest.json").write_text(json.dumps(_native.expected_manifest(tmp_path)))
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delenv(_native.ENV, raising=False)
    return tmp_path


def test_a_matching_build_goes_in_front_of_the_package_path(tree: Path) -> None:
    path = [str(tree / "engine")]
    assert _native.activate(path) is True
    assert path == [str(tree / ".native" / "engine"), str(tree / "engine")]
    assert sys.path[0] == str(tree / ".native")


def test_an_edited_source_makes_the_build_stale(
        tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tree / "engine" / "a.py").write_text("X = 2\n")
    path = [str(tree / "engine")]
    assert _native.activate(path) is False
    assert path == [str(tree / "engine")]
    assert str(tree / ".native") not in sys.path
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "stale" in err and "pure Python" in err


def test_a_new_source_file_makes_the_build_stale(tree: Path) -> None:
    (tree / "engine" / "sub").mkdir()
    (tree / "engine" / "sub" / "b.py").write_text("")
    assert _native.activate([str(tree / "engine")]) is False


@pytest.mark.parametrize("key, value", [("python", "3.0.0 .so"), ("mypy", "0.1"),
                                        ("modules", ["engine/a.py"])])
def test_another_python_mypy_or_module_list_makes_the_build_stale(
        tree: Path, key: str, value: object) -> None:
    manifest = _native.read_manifest(tree / ".native")
    assert manifest is not None
    manifest[key] = value
    (tree / ".native" / "manifest.json").write_text(json.dumps(manifest))
    assert _native.activate([str(tree / "engine")]) is False


@pytest.mark.parametrize("value", ["0", "false", "off"])
def test_buraco_native_0_forces_pure_python(
        tree: Path, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(_native.ENV, value)
    path = [str(tree / "engine")]
    assert _native.activate(path) is False
    assert path == [str(tree / "engine")]


def test_no_build_or_an_unreadable_manifest_is_pure_python_and_silent(
        tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tree / ".native" / "manifest.json").write_text("{not json")
    assert _native.activate([str(tree / "engine")]) is False
    (tree / ".native" / "manifest.json").unlink()
    assert _native.activate([str(tree / "engine")]) is False
    assert capsys.readouterr().err == ""


def test_the_compiled_modules_are_the_ones_that_run() -> None:
    """In this process: NATIVE says where the hot modules come from."""
    from engine import deal, state
    from engine.ai import dificil

    for module in (deal, state, dificil):
        assert Path(module.__file__ or "").suffix == (".so" if engine.NATIVE else ".py")
    assert Path(engine.cards.__file__ or "").suffix == ".py"  # Card stays a Python class
    built = _native.read_manifest(ROOT / ".native") == _native.expected_manifest(ROOT)
    expected = built and os.environ.get(_native.ENV, "1") != "0"
    assert expected == engine.NATIVE


def _compiler() -> str | None:
    """The C compiler tools/build_native.py would use, if any."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from build_native import _compiler as find
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return find()


def _play(native: bool) -> list[str]:
    env = dict(os.environ, **{_native.ENV: "1" if native else "0"})
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "native_support.py"), "25"],
                          env=env, capture_output=True, text=True, check=True, timeout=600)
    assert done.stderr == ""  # no stale-build warning either
    return done.stdout.splitlines()


def test_compiled_and_pure_play_the_same_actions_events_and_states() -> None:
    """25 seeded random deals of every preset and player count (actions, events, final
    state, the state after replaying the actions on a copy), one seeded ``normal`` deal of
    every two-player preset with ``dificil``'s fixed-sample answers along it."""
    if _native.read_manifest(ROOT / ".native") is None:
        if _compiler() is None:  # make venv could not build: nothing to compare with
            pytest.skip("no C compiler: the engine runs as pure Python only")
        pytest.fail("no compiled build in .native/: run `make venv` (or `make native`)")
    pure, native = _play(native=False), _play(native=True)
    assert json.loads(pure[0]) == {"native": False}
    assert json.loads(native[0]) == {"native": True}
    assert len(pure) == len(native) == 1 + 11 + 5  # 11 preset-players, 5 with 2 seats
    for a, b in zip(pure[1:], native[1:], strict=True):
        line = json.loads(a)
        assert a == b, f"{line['preset']} {line.get('players', 'ai')}: native differs"
        for deal in line.get("deals", []):
            assert deal["final"] == deal["replayed"] and len(deal["actions"]) > 20
