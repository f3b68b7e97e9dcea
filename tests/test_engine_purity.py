"""DESIGN "Three rings" and issue 2: ``engine/`` imports nothing from ``bot/`` or
``adapters/`` and does no I/O (no files, sockets, asyncio, logging setup, time)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "engine"
FORBIDDEN_MODULES = {
    "bot", "adapters", "asyncio", "socket", "logging", "redis", "telegram", "discord",
    "subprocess", "os", "shutil", "sqlite3", "urllib", "http", "requests", "httpx",
}
# The CLIs (replay, selfplay, and the catalogs of their language) read files and print;
# nothing else in the engine does.
CLI = {"__main__.py", "selfplay.py", "cli_i18n.py"}
# The loader of the compiled build (issue 13) reads BURACO_NATIVE and the build's manifest
# once, at import, to choose between the compiled modules and pure Python.
LOADER = "_native.py"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _calls_open(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in
               {"open", "print", "input"} for n in ast.walk(tree))


def test_engine_imports_neither_bot_nor_adapters_nor_io_modules() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) > 10
    def forbidden(f: Path) -> set[str]:
        # the CLIs may touch the OS (file descriptors of a closed pipe), nothing else may
        allowed = {"os"} if f.name in CLI or f.name == LOADER else set()
        return _imports(f) & (FORBIDDEN_MODULES - allowed)

    offenders = {str(f.relative_to(ENGINE)): sorted(forbidden(f)) for f in files if forbidden(f)}
    assert offenders == {}


def test_engine_does_no_file_or_console_io_outside_the_cli() -> None:
    offenders = [str(f.relative_to(ENGINE)) for f in sorted(ENGINE.rglob("*.py"))
                 if f.name not in CLI and _calls_open(f)]
    assert offenders == []
