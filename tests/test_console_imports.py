"""Issue 38 "The house": the imports of ``adapters/console`` run one way, as they do
everywhere else (adapters -> bot -> engine). ``app`` imported ``commands``, ``choose``,
``question`` and ``wild``, and each imported ``ConsoleGame`` back (under
``TYPE_CHECKING``, and ``question`` imported ``commands`` inside a function): a
five-module circle. What they share lives in ``adapters/console/session.py``.

Every import counts here, at the top, under ``TYPE_CHECKING`` or inside a function."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

CONSOLE = Path(__file__).resolve().parents[1] / "adapters" / "console"
PACKAGE = "adapters.console"


def console_imports(source: str) -> set[str]:
    """The ``adapters.console`` modules ``source`` imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == PACKAGE:  # from adapters.console import choose, question
                found |= {alias.name for alias in node.names}
            elif node.module.startswith(PACKAGE + "."):
                found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            found |= {alias.name.split(".")[2] for alias in node.names
                      if alias.name.startswith(PACKAGE + ".")}
    return found


def graph() -> dict[str, set[str]]:
    """Each module of adapters/console -> the modules of it it imports."""
    return {path.stem: console_imports(path.read_text("utf-8")) - {path.stem}
            for path in CONSOLE.glob("*.py") if path.stem != "__init__"}


def test_the_console_modules_import_one_another_without_a_cycle() -> None:
    edges = graph()
    try:
        order = list(TopologicalSorter(edges).static_order())
    except CycleError as err:
        raise AssertionError(f"import cycle in adapters/console: {err.args[1]}") from None
    assert order.index("session") < order.index("question") < order.index("commands")
    assert order[-1] == "app"


def test_no_console_module_imports_app_back() -> None:
    """``ConsoleGame`` is imported by the composition root, never back by its parts."""
    assert sorted(name for name, imports in graph().items() if "app" in imports) == []
    assert graph()["session"] == set()  # the shared home imports none of them


def test_the_cycle_check_sees_type_checking_and_function_level_imports() -> None:
    """The check would have caught the old circle: an import under ``TYPE_CHECKING``
    and one inside a function count."""
    source = ("from typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n    from adapters.console.app import ConsoleGame\n"
              "def ask():\n    from adapters.console.commands import command_word\n")
    assert console_imports(source) == {"app", "commands"}
    edges = {"app": {"question"}, "question": {"app"}}
    try:
        list(TopologicalSorter(edges).static_order())
    except CycleError:
        pass
    else:
        raise AssertionError("a two-module circle went unseen")
