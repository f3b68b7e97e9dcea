"""Which engine is running: the mypyc-compiled modules in ``.native/`` or pure Python.

``tools/build_native.py`` (run by ``make venv``) compiles the modules in :data:`COMPILED`
into ``<project>/.native/`` and writes ``.native/manifest.json`` last.
:func:`activate`, called by ``engine/__init__.py`` before any engine module is
imported, puts that directory in front of the engine's package path only when the
manifest equals :func:`expected_manifest`: the hash of every ``engine/**/*.py`` (mypyc
inlines types across the modules it compiles together, so any edit makes the whole build
stale), the interpreter's version and ABI, and the installed mypy's version. Otherwise
the engine stays pure Python, with one line on stderr when a stale build is found.
``BURACO_NATIVE=0`` in the environment forces pure Python. This module itself is never
compiled.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import sysconfig
from pathlib import Path

DIR_NAME = ".native"
ENV = "BURACO_NATIVE"

COMPILED: tuple[str, ...] = (
    "engine/actions.py",
    "engine/deal.py",
    "engine/melds.py",
    "engine/memo.py",
    "engine/runs.py",
    "engine/scoring.py",
    "engine/simulate.py",
    "engine/state.py",
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


def activate(package_path: list[str]) -> bool:
    """Put the compiled build in front of ``package_path`` (``engine.__path__``) and its
    shared library's directory on ``sys.path`` when the build matches; True if it did.

    Pure Python (False) when ``BURACO_NATIVE=0``, when there is no build, or when the
    build is stale (one line on stderr). Call it before importing any engine module."""
    if os.environ.get(ENV, "1").strip() in ("0", "false", "no", "off"):
        return False
    root = Path(package_path[0]).resolve().parent
    directory = root / DIR_NAME
    found = read_manifest(directory)
    if found is None:
        return False
    if found != expected_manifest(root):
        sys.stderr.write(
            f"engine: the compiled build in {directory} is stale (sources, Python or mypy "
            "changed): running pure Python; `make venv` rebuilds it\n"
        )
        return False
    sys.path.insert(0, str(directory))
    package_path.insert(0, str(directory / "engine"))
    return True


def activate_subpackage(package_path: list[str], name: str) -> None:
    """Put the compiled build of subpackage ``name`` (e.g. ``"ai"``) in front of its
    ``__path__`` when the engine itself runs compiled (``engine.NATIVE``)."""
    import engine

    if engine.NATIVE:
        root = Path(engine.__path__[-1]).resolve().parent
        package_path.insert(0, str(root / DIR_NAME / "engine" / name))
