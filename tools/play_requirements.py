"""Print the requirements of the terminal game, one a line (``make play``, issue 30).

Usage: ``python tools/play_requirements.py``

They are the project's dependencies (``pyproject.toml``, ``[project] dependencies``)
without :data:`CHAT_ONLY`, the libraries only the chat platforms import, so
that ``make play`` installs in seconds what ``python -m bot play`` needs; ``make test``
and ``make venv`` install everything (``-e '.[test]'``). One list of dependencies stays
in ``pyproject.toml``.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHAT_ONLY = frozenset({"python-telegram-bot", "discord.py", "matplotlib", "aiohttp",
                       "prometheus_client"})
"""Distribution names (as ``pyproject.toml`` spells them) the terminal game never imports
(matplotlib draws the match pictures only a chat gets, issue 29: imported when drawing;
aiohttp serves the web table and prometheus_client the metrics of ``python -m bot
serve``)."""


def name_of(requirement: str) -> str:
    """The distribution name a PEP 508 ``requirement`` starts with (``"fakeredis[lua]>=2"``
    -> ``"fakeredis"``)."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    if match is None:
        raise ValueError(f"not a requirement: {requirement!r}")
    return match.group(1)


def play_requirements(pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """The ``[project] dependencies`` of ``pyproject`` whose name is not in
    :data:`CHAT_ONLY`, in their order, as written."""
    with pyproject.open("rb") as fh:
        deps: list[str] = tomllib.load(fh)["project"]["dependencies"]
    return [dep for dep in deps if name_of(dep).lower() not in CHAT_ONLY]


if __name__ == "__main__":
    sys.stdout.write("".join(f"{dep}\n" for dep in play_requirements()))
