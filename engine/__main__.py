"""``python -m engine``: ``replay FILE`` (issue 2) and ``selfplay ...`` (issue 5).

``replay`` prints one JSON object and exits 0 when every action was legal, 1 at an
illegal action, 2 for a malformed record (a clear message, never a traceback).
"""

from __future__ import annotations

import json
import os
import sys


def _replay(argv: list[str]) -> int:
    from engine.record import MalformedRecord, replay

    if len(argv) != 1:
        print("uso: python -m engine replay ARQUIVO.json", file=sys.stderr)
        return 2
    path = argv[0]
    try:
        with open(path, encoding="utf-8") as fh:
            record = json.load(fh)
    except OSError as err:
        return _malformed(f"não consegui ler {path}: {err.strerror}")
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        return _malformed(f"{path} não é JSON válido: {err}")
    except RecursionError:
        return _malformed(f"{path} tem JSON aninhado fundo demais")
    try:
        result = replay(record)
    except MalformedRecord as err:
        return _malformed(str(err))
    except RecursionError:
        return _malformed("registro aninhado fundo demais")
    except Exception as err:  # a record must never end in a traceback
        return _malformed(f"registro ilegível: {type(err).__name__}: {err}")
    print(json.dumps(result.to_json(), ensure_ascii=False))
    return 0 if result.ok else 1


def _malformed(message: str) -> int:
    print(
        json.dumps(
            {
                "ok": False,
                "error": {"action": None, "code": "malformed_record", "message": message},
            },
            ensure_ascii=False,
        )
    )
    return 2


USAGE = """uso: python -m engine COMANDO
  replay ARQUIVO.json   reproduz um registro de jogo e imprime o resultado em JSON
                        (saída 0: tudo legal; 1: ação ilegal; 2: registro malformado)
  selfplay ...          robôs contra robôs (python -m engine selfplay --help)"""


def main(argv: list[str] | None = None) -> int:
    """Dispatch the subcommands; returns the exit code."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] in (["-h"], ["--help"], ["help"]):
        print(USAGE)
        return 0
    if args and args[0] == "replay":
        return _replay(args[1:])
    if args and args[0] == "selfplay":
        from engine.ai.selfplay import main as selfplay_main

        return selfplay_main(args[1:])
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 1
    sys.exit(code)
