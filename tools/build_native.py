"""Compile the engine's hot modules with mypyc into ``.native/`` (issue 13).

Usage: ``python tools/build_native.py [--root DIR] [--force] [--quiet]``

``make venv`` runs this every time. It compiles the modules listed in
:data:`engine._native.COMPILED` (paths relative to the project root) into a temporary
directory next to ``<root>/.native/`` (``engine/*.so`` and the group's shared library,
never next to the ``.py`` files), writes its ``manifest.json`` (the expected manifest
plus each built file's size and mtime) and swaps it in with a rename only on success, so
a failed build never deletes a good one. ``engine/__init__.py`` loads the compiled
modules only while that manifest matches (``engine._native.build_status``).

It returns at once when the build is up to date. An exclusive ``flock`` on
``<root>/.native.lock`` is held while checking and building: a second build waits, then
finds the first one's result. Without a C compiler, or when mypyc or the C build fails,
it prints one line (the reason; the whole log is in ``<root>/.native-build.log``) and the
engine runs as pure Python; the failed attempt is recorded in
``<root>/.native-failed.json`` and not retried while the sources, Python and mypy are
unchanged (``--force``, i.e. ``make native``, retries). Exit status: 0 when a build is in
place, 1 when not, 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import re
import shutil
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
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
    prints one line and returns False (``KeyboardInterrupt`` propagates, after clean-up)."""
    native = _load_native(root)
    with _locked(root / ".native.lock"):
        return _build_locked(native, root, force, quiet, config or root / "pyproject.toml")


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (created if missing) inside the block."""
    with path.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _build_locked(native: ModuleType, root: Path, force: bool, quiet: bool,
                  config: Path) -> bool:
    """:func:`build` while holding the lock."""
    out = root / native.DIR_NAME
    manifest = native.expected_manifest(root)
    failed_path, log_path = root / ".native-failed.json", root / ".native-build.log"
    status = native.build_status(root)
    if not force and status == "ok":
        if not quiet:
            print(f"native engine: up to date in {out}")
        return True
    failed = _read_json(failed_path)
    if not force and failed is not None and failed.get("manifest") == manifest:
        print(f"native engine: the last build failed ({failed.get('reason')}), the engine "
              "runs as pure Python; `make native` retries")
        return False
    if _compiler() is None:
        print("native engine: no C compiler found, the engine runs as pure Python")
        return False
    print(f"native engine: compiling {len(native.COMPILED)} modules (about a minute)…",
          flush=True)
    started = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix=f"{native.DIR_NAME}.tmp-", dir=root))
    try:
        with _output_to(log_path):
            _compile(root, tmp, native.COMPILED, config)
    except KeyboardInterrupt:
        shutil.rmtree(tmp, ignore_errors=True)
        print(f"\nnative engine: build interrupted, {_fallback(native, root)}")
        raise
    except (Exception, SystemExit) as err:  # any failure: fall back to pure Python
        shutil.rmtree(tmp, ignore_errors=True)
        if status == "stale":  # a build that no longer loads: only noise at each import
            shutil.rmtree(out, ignore_errors=True)
        reason = _reason(log_path.read_text(errors="replace"), err)
        failed_path.write_text(json.dumps({"manifest": manifest, "reason": reason,
                                           "log": str(log_path)}, indent=1))
        print(f"native engine: build failed ({reason}; log: {log_path}), "
              f"{_fallback(native, root)}")
        return False
    shutil.rmtree(tmp / "build", ignore_errors=True)
    files = native.built_files(tmp)
    (tmp / "manifest.json").write_text(json.dumps({**manifest, "files": files}, indent=1,
                                                  sort_keys=True))
    _swap(tmp, out)
    failed_path.unlink(missing_ok=True)
    print(f"native engine: {len(native.COMPILED)} modules compiled into {out} "
          f"in {time.monotonic() - started:.0f} s")
    return True


def _fallback(native: ModuleType, root: Path) -> str:
    """What runs after a failed or interrupted build: the kept build or pure Python."""
    if native.build_status(root) == "ok":
        return "the previous build is kept"
    return "the engine runs as pure Python"


def _read_json(path: Path) -> dict[str, object] | None:
    """The JSON object in ``path``, None when missing or unreadable."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


@contextlib.contextmanager
def _output_to(path: Path) -> Iterator[None]:
    """Send ``sys.stdout``, ``sys.stderr`` and file descriptors 1 and 2 (the C
    compiler's output) to ``path``."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with path.open("w", buffering=1) as log:
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        try:
            with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
                yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            for fd, copy in zip((1, 2), saved, strict=True):
                os.dup2(copy, fd)
                os.close(copy)


def _reason(log: str, err: BaseException) -> str:
    """One line on why the build failed: the last error line of the log (the compiler's
    or mypy's) when there is one, else the failing command, else ``err``."""
    errors = [line.strip() for line in log.splitlines()
              if re.search(r"\berror: ", line) and not line.startswith("error: command")]
    if errors:  # gcc's "….c:1:10: fatal error: Python.h: …" -> "Python.h: …"
        last = errors[-1]
        return (last if last.startswith("engine/") else last.split("error: ", 1)[1])[:200]
    command = re.search(r"command '([^']+)' failed", f"{err} {log}")
    if command:
        return f"C compiler {os.path.basename(command.group(1))!r} failed"
    return (str(err) or repr(err))[:200]


def _swap(new: Path, out: Path) -> None:
    """Put directory ``new`` in place of ``out`` with renames (``out`` may be missing)."""
    old = out.with_name(f"{out.name}.old-{os.getpid()}")
    if out.exists():
        out.rename(old)
    new.rename(out)
    shutil.rmtree(old, ignore_errors=True)


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
            group_name="engine_native",  # engine._native.GROUP
            opt_level="3",
        )
        try:
            setup(
                name="engine-native",
                ext_modules=extensions,
                script_name="build_native",
                script_args=["build_ext", "--build-lib", str(out), "--build-temp",
                             str(out / "build" / "temp")],
            )
        except SystemExit as err:  # setuptools turns Ctrl-C into SystemExit("interrupted")
            if str(err) == "interrupted":
                raise KeyboardInterrupt from err
            raise
    finally:
        os.chdir(here)


def main() -> None:
    """Command line: build (or keep) the compiled engine of ``--root``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="project tree (default: this one)")
    parser.add_argument("--force", action="store_true", help="rebuild even when up to date")
    parser.add_argument("--quiet", action="store_true", help="no output when up to date")
    args = parser.parse_args()
    try:
        ok = build(args.root.resolve(), force=args.force, quiet=args.quiet)
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
