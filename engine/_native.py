"""Which engine is running: the mypyc-compiled modules in ``.native/`` or pure Python.

``tools/build_native.py`` (run by ``make venv``) compiles the modules in :data:`COMPILED`
into ``<project>/.native/`` and writes ``.native/manifest.json`` last.
:func:`activate`, called by ``engine/__init__.py`` before any engine module is
imported, puts that directory in front of the engine's package path only when the
manifest equals :func:`expected_manifest` (the hash of every ``engine/**/*.py``: mypyc
inlines types across the modules it compiles together, so any edit makes the whole build
stale; the interpreter's version and ABI; the installed mypy's version) and every built
file it lists still has its recorded size and mtime (:func:`build_status`: one
``os.stat`` per file, no hashing at import). Otherwise the engine stays pure Python, with
one line on stderr when a stale or damaged build is found. ``BURACO_NATIVE`` set to
``0``, ``false``, ``no`` or ``off`` (any case) forces pure Python. This module itself is
never compiled.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import sysconfig
from importlib import import_module
from pathlib import Path

DIR_NAME = ".native"
GROUP = "engine_native"
"""The mypyc group: its shared library is ``<GROUP>__mypyc<EXT_SUFFIX>`` in ``.native/``."""
ENV = "BURACO_NATIVE"
OFF = ("0", "false", "no", "off")
"""Values of ``BURACO_NATIVE`` (compared lower-cased) that force pure Python."""
ON = ("", "1", "true", "yes", "on")
"""Values of ``BURACO_NATIVE`` that run the compiled build when it is there (the
default); any other value does too, after one line on stderr naming the two lists."""

COMPILED: tuple[str, ...] = (
    "engine/actions.py",
    "engine/deal.py",
    "engine/melds.py",
    "engine/memo.py",
    "engine/pile.py",
    "engine/relaid.py",
    "engine/runs.py",
    "engine/scoring.py",
    "engine/simulate.py",
    "engine/state.py",
    "engine/state_json.py",
    "engine/turns.py",
    "engine/view.py",
    "engine/ai/danger.py",
    "engine/ai/determinize.py",
    "engine/ai/dificil.py",
    "engine/ai/evaluate.py",
    "engine/ai/facil.py",
    "engine/ai/hand.py",
    "engine/ai/moves.py",
    "engine/ai/normal.py",
    "engine/ai/plan.py",
    "engine/ai/seat.py",
    "engine/ai/tracker.py",
    "engine/ai/weights.py",
)
"""The modules compiled together (one mypyc group), as paths under the project root."""


def _mypy_version() -> str | None:
    """The installed mypy's version (the compiler of the build), None without mypy."""
    from importlib import metadata

    try:
        return metadata.version("mypy")
    except metadata.PackageNotFoundError:
        return None


def expected_manifest(root: Path) -> dict[str, object]:
    """What ``.native/manifest.json`` must hold for a build of ``root`` to be loaded:
    ``sources`` (sha256 over every ``engine/**/*.py`` path and content, in path order),
    ``python`` (version and extension suffix), ``mypy`` (version or None), ``modules``."""
    digest = hashlib.sha256()
    for path in sorted((root / "engine").rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return {
        "sources": digest.hexdigest(),
        "python": f"{sys.version} {sysconfig.get_config_var('EXT_SUFFIX')}",
        "mypy": _mypy_version(),
        "modules": list(COMPILED),
    }


def read_manifest(directory: Path) -> dict[str, object] | None:
    """The manifest in ``directory`` (a build), None when missing or unreadable."""
    try:
        data = json.loads((directory / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def built_files(directory: Path) -> dict[str, list[int]]:
    """Every file of the build in ``directory`` but the manifest: relative path ->
    ``[size, mtime_ns]`` (what ``tools/build_native.py`` records under ``files``)."""
    files = {}
    for path in sorted(directory.rglob("*")):
        if path.is_file() and path.name != "manifest.json":
            stat = path.stat()
            files[path.relative_to(directory).as_posix()] = [stat.st_size, stat.st_mtime_ns]
    return files


def build_status(root: Path) -> str:
    """``"missing"`` (no readable manifest in ``root/.native``), ``"stale"`` (sources,
    Python or mypy changed, or a listed file is gone or changed size or mtime) or
    ``"ok"``."""
    directory = root / DIR_NAME
    found = read_manifest(directory)
    if found is None:
        return "missing"
    files = found.pop("files", None)
    if found != expected_manifest(root) or not isinstance(files, dict) or not files:
        return "stale"
    for name, recorded in files.items():
        try:
            stat = os.stat(directory / name)
        except OSError:
            return "stale"
        if [stat.st_size, stat.st_mtime_ns] != recorded:
            return "stale"
    return "ok"


def disabled() -> bool:
    """True when ``BURACO_NATIVE`` forces pure Python (one of :data:`OFF`, any case); a
    value in neither :data:`OFF` nor :data:`ON` is told on stderr and counts as on."""
    value = os.environ.get(ENV, "1").strip().lower()
    if value not in OFF and value not in ON:
        sys.stderr.write(f"engine: {ENV}={value!r} is neither on ({', '.join(ON[1:])}) "
                         f"nor off ({', '.join(OFF)}): taken as on\n")
    return value in OFF


def activate(package_path: list[str]) -> bool:
    """Put the compiled build in front of ``package_path`` (``engine.__path__``) and its
    shared library's directory on ``sys.path`` when the build matches; True if it did.

    Pure Python (False) when ``BURACO_NATIVE`` is off, when there is no build, or when
    the build is stale or damaged (one line on stderr). Call it before importing any
    engine module."""
    if disabled():
        return False
    root = Path(package_path[0]).resolve().parent
    directory = root / DIR_NAME
    status = build_status(root)
    if status == "missing":
        return False
    if status == "stale":
        sys.stderr.write(
            f"engine: the compiled build in {directory} is stale (sources, Python, mypy or "
            "its files changed): running pure Python; `make native` rebuilds it\n"
        )
        return False
    sys.path.insert(0, str(directory))
    try:  # the group's shared library, which every compiled module loads
        import_module(f"{GROUP}__mypyc")
    except ImportError as err:  # damaged though its size and mtime match
        sys.path.remove(str(directory))
        sys.stderr.write(f"engine: the compiled build in {directory} does not load "
                         f"({type(err).__name__}): running pure Python; `make native` "
                         "rebuilds it\n")
        return False
    package_path.insert(0, str(directory / "engine"))
    return True


def activate_subpackage(package_path: list[str], name: str) -> None:
    """Put the compiled build of subpackage ``name`` (e.g. ``"ai"``) in front of its
    ``__path__`` when the engine itself runs compiled (``engine.NATIVE``)."""
    import engine

    if engine.NATIVE:
        root = Path(engine.__path__[-1]).resolve().parent
        package_path.insert(0, str(root / DIR_NAME / "engine" / name))
