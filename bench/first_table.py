"""Time to the first table of ``make play`` on a clean clone (issue 30, target <= 15 s).

Usage: ``python bench/first_table.py [--source DIR] [--keep]``

Clones ``--source`` (default: this repository; its committed ``HEAD``, as a newcomer gets
it) into a temporary directory, runs ``make play`` there in a pseudo-terminal, as a
person would, and reports the seconds from the command to the first hand on screen
("Sua mão"), then quits the game (``q``, ``s``). pip's cache is whatever this machine has:
warm it first (any earlier ``make play`` or ``make venv``) to measure the case the target
is about. Prints the load average too: on a busy machine the figure grows with it.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from pty_support import Terminal  # noqa: E402

TARGET_S = 15.0


def first_table_s(source: Path, keep: bool = False) -> tuple[float, float]:
    """Seconds from ``make play`` in a fresh clone of ``source`` to its first hand, and
    the CPU seconds (user + system) of the whole run, quitting included: on a busy
    machine the first grows with the load, the second hardly."""
    work = Path(tempfile.mkdtemp(prefix="first-table-"))
    try:
        subprocess.run(["git", "clone", "--quiet", str(source), str(work / "x")], check=True)
        start, cpu = time.monotonic(), _children_cpu()
        term = Terminal(["make", "play"], cwd=work / "x")
        term.expect("Sua mão", timeout=600)
        took = time.monotonic() - start
        term.expect("> ")
        term.type("q")
        term.expect("(s/n)")
        term.type("s")
        term.close()
        return took, _children_cpu() - cpu
    finally:
        if keep:
            print(f"clone kept in {work / 'x'}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=ROOT)
    parser.add_argument("--keep", action="store_true", help="keep the clone")
    args = parser.parse_args()
    took, cpu = first_table_s(args.source, args.keep)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    verdict = "ok" if took <= TARGET_S else "over"
    print(f"make play, clean clone: first table after {took:.1f} s (target {TARGET_S:.0f} s: "
          f"{verdict}; {cpu:.1f} s of CPU; load average {load}, {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
