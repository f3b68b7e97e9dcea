"""``python -m engine``: ``replay FILE...`` (issue 2) and ``selfplay ...`` (issue 5).

``replay`` prints one JSON object per file (with several files each carries its
``"file"``) and exits with the worst status: 0 when every action of every file was
legal, 1 at an illegal action, 2 for a malformed record (a clear message, never a
traceback). ``--help`` works on both commands.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from engine.cli_i18n import Words, argparse_language, env_lang, tolerant_output


def _replay_one(path: str, _: Words) -> tuple[int, dict[str, Any]]:
    """The status and JSON object of one record file, every message in ``_``'s language
    (the engine's refusals too; the ``code`` fields stay as they are)."""
    from engine.record import MalformedRecord, replay

    try:
        with open(path, encoding="utf-8") as fh:
            record = json.load(fh)
    except OSError as err:
        return _malformed(_("não consegui ler {path}: {reason}", path=path,
                            reason=_os_reason(err, _)))
    except json.JSONDecodeError as err:
        return _malformed(_("{path} não é JSON válido (linha {line}, coluna {col})",
                            path=path, line=err.lineno, col=err.colno))
    except UnicodeDecodeError:
        return _malformed(_("{path} não está em UTF-8", path=path))
    except RecursionError:
        return _malformed(_("{path} tem JSON aninhado fundo demais", path=path))
    try:
        result = replay(record)
    except MalformedRecord as err:
        return _malformed(_.record(err.template, err.params, err.cause))
    except RecursionError:
        return _malformed(_("registro aninhado fundo demais"))
    except Exception as err:  # a record must never end in a traceback
        return _malformed(_("registro ilegível: {kind}: {err}", kind=type(err).__name__,
                                   err=err))
    out = result.to_json()
    if result.refusal is not None and out.get("error"):
        out["error"] = {**out["error"], "message": _.reason(result.refusal)}
    return (0 if result.ok else 1), out


def _os_reason(err: OSError, _: Words) -> str:
    """Why a file could not be read, in ``_``'s language for the common cases (missing,
    no permission, a directory); the system's own text otherwise."""
    if isinstance(err, FileNotFoundError):
        return _("arquivo não encontrado")
    if isinstance(err, PermissionError):
        return _("sem permissão de leitura")
    if isinstance(err, IsADirectoryError):
        return _("é uma pasta, não um arquivo")
    return err.strerror or str(err)


def _malformed(message: str) -> tuple[int, dict[str, Any]]:
    return 2, {"ok": False,
               "error": {"action": None, "code": "malformed_record", "message": message}}


def _replay(paths: list[str], _: Words) -> int:
    """Replay every file in ``paths``; the worst exit status."""
    worst = 0
    for path in paths:
        status, out = _replay_one(path, _)
        if len(paths) > 1:
            out = {"file": path, **out}
        print(json.dumps(out, ensure_ascii=False))
        worst = max(worst, status)
    return worst


def parser(_: Words) -> argparse.ArgumentParser:
    """``python -m engine`` and its two commands, help in ``_``'s language."""
    top = argparse.ArgumentParser(
        prog="python -m engine", description=_("Motor do buraco: reproduzir registros de "
                                               "jogo e pôr robôs contra robôs."))
    sub = top.add_subparsers(dest="command", required=True, metavar=_("COMANDO"),
                             title=_("comandos"))
    replay = sub.add_parser(
        "replay", help=_("reproduz registros de jogo e imprime o resultado em JSON"),
        description=_("Reproduz cada registro e imprime um objeto JSON por arquivo (saída 0: "
                      "tudo legal; 1: ação ilegal; 2: registro malformado; com vários "
                      "arquivos, a pior)."))
    replay.add_argument("files", nargs="+", metavar=_("ARQUIVO.json"),
                        help=_("registro de jogo"))
    sub.add_parser("selfplay", add_help=False,
                   help=_("robôs contra robôs (python -m engine selfplay --help)"))
    return top


def main(argv: list[str] | None = None) -> int:
    """Dispatch the subcommands; returns the exit code. Speaks the locale's language
    (``LANG``: pt-BR, en or it)."""
    tolerant_output()  # a terminal that cannot show ♣ or ç gets "?", not a traceback
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["selfplay"]:
        from engine.ai.selfplay import main as selfplay_main

        return selfplay_main(args[1:])
    _ = Words(env_lang(os.environ))
    try:
        with argparse_language(_.lang):
            parsed = parser(_).parse_args(args)
    except SystemExit as done:  # --help (0) or a usage error (2, message printed)
        return done.code if isinstance(done.code, int) else 2
    return _replay(parsed.files, _)


if __name__ == "__main__":
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 1
    sys.exit(code)
