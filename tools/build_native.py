"""Compile the engine's hot modules with mypyc into ``.native/`` (issue 13).

Usage: ``python tools/build_native.py [--root DIR] [--force] [--quiet]``

``make venv`` runs this after installing. It compiles the modules listed in
:data:`engine._native.COMPILED` (paths relative to the project root) into
``<root>/.native/`` (``engine/*.so`` and the group's shared library), never next to the
``.py`` files, and writes ``<root>/.native/manifest.json`` last; ``engine/__init__.py``
loads the compiled modules only when that manifest matches the sources, the Python ABI
and the mypy version (``engine._native``). Nothing is done when the manifest already
matches. Without a C compiler, or when mypyc or the C build fails, it prints one line,
removes any older build and exits 0: the engine then runs as pure Python.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import sysconfig
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _compiler() -> str | None:
    """The C compiler setuptools would call (``$CC`` or Python's own), if it is on PATH."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0])


def _load_native(root: Path) -> ModuleType:
    """``engine._native`` of the tree at ``root`` (the manifest is that tree's)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_buraco_native", root / "engine" / "_native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(root: Path, force: bool = False, quiet: bool = False,
          config: Path | None = None) -> bool:
    """Build ``root``'s compiled engine; True when an up-to-date build is in place.

    ``config``: the mypy configuration (default ``root/pyproject.toml``; ``bench/compare.py``
    builds exported trees that hold only ``engine/``). Never raises for a failed build: it
    prints one line and returns False."""
    native = _load_native(root)
    out = root / native.DIR_NAME
    manifest = native.expected_manifest(root)
    if not force and native.read_manifest(out) == manifest:
        if not quiet:
            print(f"native engine: up to date in {out}")
        return True
    shutil.rmtree(out, ignore_errors=True)
    if _compiler() is None:
        print("native engine: no C compiler found, the engine runs as pure Python")
        return False
    started = time.monotonic()
    log = io.StringIO()
    try:
        with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
            _compile(root, out, native.COMPILED, config or root / "pyproject.toml")
    except (Exception, SystemExit) as err:  # any failure: fall back to pure Python
        shutil.rmtree(out, ignore_errors=True)
        last = [line for line in log.getvalue().splitlines() if "error" in line.lower()]
        print(f"native engine: build failed ({(last or [repr(err)])[0][:200]}), "
              "the engine runs as pure Python")
        if not quiet:
            sys.stderr.write(log.getvalue())
        return False
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True))
    shutil.rmtree(out / "build", ignore_errors=True)
    print(f"native engine: {len(native.COMPILED)} modules compiled into {out} "
          f"in {time.monotonic() - started:.0f} s")
    return True


def _compile(root: Path, out: Path, modules: tuple[str, ...], config: Path) -> None:
    """mypyc + setuptools ``build_ext`` of ``modules`` into ``out`` (cwd ``root``)."""
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    here = Path.cwd()
    os.chdir(root)
    try:
        options = ["--config-file", str(config)] if config.exists() else []
        extensions = mypycify(
            [*options, *modules],
            target_dir=str(out / "build"),
            group_name="engine_native",
            opt_level="3",
        )
        setup(
            name="engine-native",
            ext_modules=extensions,
            script_name="build_native",
            script_args=["build_ext", "--build-lib", str(out), "--build-temp",
                         str(out / "build" / "temp")],
        )
    finally:
        os.chdir(here)


def main() -> None:
    """Command line: build (or keep) the compiled engine of ``--root``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="project tree (default: this one)")
    parser.add_argument("--force", action="store_true", help="rebuild even when up to date")
    parser.add_argument("--quiet", action="store_true", help="no output when up to date")
    args = parser.parse_args()
    build(args.root.resolve(), force=args.force, quiet=args.quiet)


if __name__ == "__main__":
    main()
