"""The compiled engine (issue 13): the loader's guard and native = pure.

``engine._native.activate`` must load a build only while its manifest matches the
sources, Python, mypy and the built files, and never with ``BURACO_NATIVE=0``; these
tests drive it, and ``tools/build_native.py``'s failure handling, on small fake trees (no
compiler needed). The last test plays seeded deals of every preset in two processes,
pure Python and compiled, and compares every action, event and state; it needs the
build only in CI (``CI`` set), elsewhere it is skipped when the build failed.
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


sys.path.insert(0, str(ROOT / "tools"))
import build_native  # noqa: E402

sys.path.remove(str(ROOT / "tools"))


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake project: ``engine/a.py`` and a build (``engine/a.so``, the group library)
    whose manifest matches it."""
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "a.py").write_text("X = 1\n")
    build = tmp_path / _native.DIR_NAME
    (build / "engine").mkdir(parents=True)
    (build / "engine" / "a.so").write_bytes(b"\x7fELF" + bytes(60))
    (build / "engine_native__mypyc.so").write_bytes(b"\x7fELF" + bytes(200))
    manifest = {**_native.expected_manifest(tmp_path), "files": _native.built_files(build)}
    (build / "manifest.json").write_text(json.dumps(manifest))
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delenv(_native.ENV, raising=False)
    loaded: list[str] = []  # the fake group library is not loadable: record the call
    monkeypatch.setattr(_native, "import_module", loaded.append)
    return tmp_path


def test_a_library_that_does_not_load_is_pure_python_with_one_line(
        tree: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Damaged though its size and mtime match (the manifest cannot see it): the
    ImportError is caught, nothing stays on the paths, one line says so."""
    def broken(name: str) -> None:
        raise ImportError(f"{name}: invalid ELF header")

    monkeypatch.setattr(_native, "import_module", broken)
    path, before = [str(tree / "engine")], list(sys.path)
    assert _native.activate(path) is False
    assert (path, sys.path) == ([str(tree / "engine")], before)
    assert capsys.readouterr().err == (
        f"engine: the compiled build in {tree / '.native'} does not load (ImportError): "
        "running pure Python; `make native` rebuilds it\n")


def test_a_matching_build_goes_in_front_of_the_package_path(tree: Path) -> None:
    path = [str(tree / "engine")]
    assert _native.activate(path) is True
    assert path == [str(tree / ".native" / "engine"), str(tree / "engine")]
    assert sys.path[0] == str(tree / ".native")
    assert _native.import_module.__self__ == ["engine_native__mypyc"]  # type: ignore[attr-defined]


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


def test_the_manifest_lists_each_built_file_with_its_size(tree: Path) -> None:
    manifest = _native.read_manifest(tree / ".native")
    assert manifest is not None
    files = manifest["files"]
    assert isinstance(files, dict)
    assert {name: size for name, (size, _) in files.items()} == {
        "engine/a.so": 64, "engine_native__mypyc.so": 204}
    assert _native.build_status(tree) == "ok"


@pytest.mark.parametrize("damage", ["delete module", "truncate module", "delete library",
                                    "add no files"])
def test_a_deleted_or_changed_built_file_makes_the_build_stale(
        tree: Path, damage: str, capsys: pytest.CaptureFixture[str]) -> None:
    build = tree / ".native"
    if damage == "delete module":
        (build / "engine" / "a.so").unlink()
    elif damage == "truncate module":
        (build / "engine" / "a.so").write_bytes(b"\x7fELF")
    elif damage == "delete library":
        (build / "engine_native__mypyc.so").unlink()
    else:  # a manifest of the older format, without ``files``
        (build / "manifest.json").write_text(json.dumps(_native.expected_manifest(tree)))
    assert _native.build_status(tree) == "stale"
    path = [str(tree / "engine")]
    assert _native.activate(path) is False
    assert path == [str(tree / "engine")]
    assert "`make native` rebuilds it" in capsys.readouterr().err


def test_a_deleted_source_makes_the_build_stale(tree: Path) -> None:
    (tree / "engine" / "a.py").unlink()
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


@pytest.mark.parametrize("value", ["0", "false", "off", "no", "FALSE", "Off", " No "])
def test_buraco_native_0_forces_pure_python(
        tree: Path, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(_native.ENV, value)
    path = [str(tree / "engine")]
    assert _native.activate(path) is False
    assert path == [str(tree / "engine")]


@pytest.mark.parametrize("value", ["1", "true", "ON", " yes ", ""])
def test_buraco_native_on_runs_the_build_silently(
        tree: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        value: str) -> None:
    monkeypatch.setenv(_native.ENV, value)
    assert _native.disabled() is False
    assert capsys.readouterr().err == ""


def test_an_unknown_buraco_native_value_is_told_and_taken_as_on(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(_native.ENV, "pure")
    assert _native.disabled() is False
    assert capsys.readouterr().err == (
        "engine: BURACO_NATIVE='pure' is neither on (1, true, yes, on) nor off "
        "(0, false, no, off): taken as on\n")


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
    built = _native.build_status(ROOT) == "ok"
    assert (built and not _native.disabled()) == engine.NATIVE


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A fake project whose loader is the real ``engine/_native.py`` (its ``COMPILED``
    modules are missing, so mypyc fails at once) and a good build of it."""
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "_native.py").write_text((ROOT / "engine" / "_native.py").read_text())
    build = tmp_path / ".native"
    build.mkdir()
    (build / "engine_native__mypyc.so").write_bytes(b"\x7fELF")
    manifest = {**_native.expected_manifest(tmp_path), "files": _native.built_files(build)}
    (build / "manifest.json").write_text(json.dumps(manifest))
    return tmp_path


def test_an_up_to_date_build_is_kept(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert build_native.build(project) is True
    assert capsys.readouterr().out == f"native engine: up to date in {project / '.native'}\n"


def test_a_failed_build_keeps_the_good_one_and_is_not_retried_until_forced(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = (project / ".native" / "manifest.json").read_text()
    assert build_native.build(project, force=True) is False
    out = capsys.readouterr().out.splitlines()
    log = project / ".native-build.log"
    assert out[0] == f"native engine: compiling {len(_native.COMPILED)} modules (about a minute)…"
    assert len(out) == 2 and out[1].startswith("native engine: build failed (")
    assert out[1].endswith(f"log: {log}), the previous build is kept")
    assert "gcc" not in out[1] and log.stat().st_size > 0
    assert (project / ".native" / "manifest.json").read_text() == before  # kept
    assert _native.build_status(project) == "ok"
    assert not list(project.glob(".native.tmp-*"))
    failed = json.loads((project / ".native-failed.json").read_text())
    assert failed["manifest"] == _native.expected_manifest(project)
    (project / "engine" / "x.py").write_text("")  # the build is stale now
    (project / ".native-failed.json").write_text(
        json.dumps({**failed, "manifest": _native.expected_manifest(project)}))
    assert build_native.build(project) is False  # not retried: one line, at once
    assert capsys.readouterr().out == (
        f"native engine: the last build failed ({failed['reason']}), the engine runs as "
        "pure Python; `make native` retries\n")


@pytest.mark.parametrize("log, reason", [
    ("gcc -Werror -c x.c\n/tmp/b/x.c:1:10: fatal error: Python.h: No such file or directory\n"
     "compilation terminated.\n", "Python.h: No such file or directory"),
    ("engine/deal.py:12: error: Name \"x\" is not defined  [name-defined]\n",
     'engine/deal.py:12: error: Name "x" is not defined  [name-defined]'),
    ("false -Wsign-compare -Werror -c x.c\n", "C compiler 'false' failed"),
])
def test_a_build_failure_is_told_by_its_last_error_line(log: str, reason: str) -> None:
    err = SystemExit("error: command 'false' failed with exit code 1")
    assert build_native._reason(log, err) == reason


def _build_missing_reason() -> str:
    """Why there is no usable build of this checkout (skip reason outside CI)."""
    failed = build_native._read_json(ROOT / ".native-failed.json")
    if failed is not None and failed.get("manifest") == _native.expected_manifest(ROOT):
        return f"the compiled build failed ({failed.get('reason')}): pure Python only"
    if build_native._compiler() is None:
        return "no C compiler: the engine runs as pure Python only"
    return f"no up-to-date compiled build in .native/ ({_native.build_status(ROOT)})"


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
    if _native.build_status(ROOT) != "ok":
        reason = _build_missing_reason()
        if os.environ.get("CI"):  # CI must test the compiled engine
            pytest.fail(f"{reason}; run `make native`")
        pytest.skip(reason)
    pure, native = _play(native=False), _play(native=True)
    assert json.loads(pure[0]) == {"native": False}
    assert json.loads(native[0]) == {"native": True}
    assert len(pure) == len(native) == 1 + 11 + 5  # 11 preset-players, 5 with 2 seats
    for a, b in zip(pure[1:], native[1:], strict=True):
        line = json.loads(a)
        assert a == b, f"{line['preset']} {line.get('players', 'ai')}: native differs"
        for deal in line.get("deals", []):
            assert deal["final"] == deal["replayed"] and len(deal["actions"]) > 20
