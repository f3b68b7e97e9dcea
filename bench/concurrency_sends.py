"""Redis writes per press of one `bench/concurrency.py` worker (issue 36, branch views).

```
.venv/bin/python bench/_proxy.py --to 127.0.0.1:6379 --delay-ms 0.5   # prints "ready PORT"
.venv/bin/python bench/concurrency_sends.py --root /path/to/tree --url redis://127.0.0.1:PORT/15
```

Runs the worker of `bench/concurrency.py` (its ``child``: `--games` games pressed at once
for `--seconds`) on code tree `--root` and counts every write the worker makes on an
asyncio stream (its only streams are its Redis connections: one write is one command or
one pipeline sent, that is one round trip) from its first measured press to its last
(the final flush and clean-up left out). Prints one
JSON line: the CPU ms per press the child measured, the presses counted and
``sends_per_press``. Unlike CPU time, which a shared machine's load moves by a third from
run to run, the writes per press move only with the pace of the game (how many edits the
coalescers merge), so a before / after pair of it says what a change to the delivery's
round trips did.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SENT = {"writes": 0}


def _counting() -> None:
    """Count every ``StreamWriter.write`` / ``writelines`` of this process."""
    writelines, write = asyncio.StreamWriter.writelines, asyncio.StreamWriter.write

    def counted_lines(self: asyncio.StreamWriter, data: Any) -> None:
        SENT["writes"] += 1
        writelines(self, data)

    def counted(self: asyncio.StreamWriter, data: Any) -> None:
        SENT["writes"] += 1
        write(self, data)

    asyncio.StreamWriter.writelines = counted_lines  # type: ignore[method-assign]
    asyncio.StreamWriter.write = counted  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", required=True, help="code tree to run")
    parser.add_argument("--url", required=True, help="Redis URL (through the proxy)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    spec = importlib.util.spec_from_file_location("concurrency", HERE / "concurrency.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules["concurrency"] = bench
    spec.loader.exec_module(bench)
    _counting()
    press = bench.Worker.press
    started: list[bool] = []

    async def first_counted(self: Any, *a: Any, **k: Any) -> bool:
        if self.measuring and not started:  # the games are open: count from here
            started.append(True)
            SENT["writes"] = 0
        done = bool(await press(self, *a, **k))
        if self.measuring:  # up to the last measured press (not the final flush)
            SENT["measured"] = SENT["writes"]
        return done

    bench.Worker.press = first_counted
    figures = asyncio.run(bench.child(args))
    presses = figures["presses_s"] * args.seconds
    print(json.dumps({"cpu_ms": round(figures["cpu_ms"], 3), "presses": round(presses),
                      "sends_per_press": round(SENT.get("measured", 0) / max(presses, 1), 3)}))


if __name__ == "__main__":
    main()
