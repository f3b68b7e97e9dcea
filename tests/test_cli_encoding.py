"""``python -m bot`` and ``python -m engine`` on a terminal that cannot encode the cards'
suits or the accents (``PYTHONIOENCODING=ascii``): "?" in their place, never a
``UnicodeEncodeError`` traceback (:func:`engine.cli_i18n.tolerant_output`)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import cli_i18n

ROOT = Path(__file__).resolve().parents[1]
UNSET = ("REDIS_URL", "TELEGRAM_TOKEN", "DISCORD_TOKEN", "LANGUAGE", "LC_ALL", "LC_MESSAGES",
         "LANG")


def run(args: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python args`` with an ASCII stdout and stderr, the locale's language unset."""
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    env.update(PYTHONIOENCODING="ascii", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, *args], input=stdin, capture_output=True,
                          text=True, encoding="ascii", cwd=cwd, env=env, timeout=120,
                          check=False)


@pytest.mark.parametrize(("args", "line"), [
    (["-m", "bot", "--help"], "    play           jogar no terminal contra rob?s"),
    (["-m", "engine", "--help"],
     "    selfplay  rob?s contra rob?s (python -m engine selfplay --help)"),
])
def test_help_on_an_ascii_terminal_replaces_what_it_cannot_show(
        args: list[str], line: str, tmp_path: Path) -> None:
    done = run(args, tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert line in done.stdout.splitlines()


def test_a_terminal_match_on_an_ascii_terminal_plays_and_quits_with_exit_0(
        tmp_path: Path) -> None:
    done = run(["-m", "bot", "play", "--players", "2", "--pause", "0"], tmp_path, "?\nq\ns\n")
    assert "Traceback" not in done.stderr and "UnicodeEncodeError" not in done.stderr
    assert done.returncode == 0, done.stderr
    assert "Comandos: c = comprar do monte ? l = pegar o lixo ? " in done.stdout
    assert "Sua vez: compre do monte" in done.stdout  # "." or " ou pegue o lixo.": a pile to take?
    assert "Partida: Voc? ? Rob? 2" in done.stdout
    assert done.stdout.endswith("At? a pr?xima!\n")


def test_typed_characters_an_ascii_terminal_cannot_decode_are_answered_not_a_traceback(
        tmp_path: Path) -> None:
    """A typed ``é`` or a pasted ``4♣`` arrives as bytes ASCII cannot decode: the
    terminal reads them as U+FFFD and answers as it answers any other typo."""
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    env.update(PYTHONIOENCODING="ascii", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "bot", "play", "--players", "2", "--pause",
                           "0"], input="d é\nd 4♣\nq\nnão\ns\n".encode(),
                          capture_output=True, cwd=tmp_path, env=env, timeout=120,
                          check=False)
    out, err = done.stdout.decode("ascii"), done.stderr.decode("ascii")
    assert "Traceback" not in err and done.returncode == 0, err
    lines = out.splitlines()
    assert "> ?? n?o ? carta: use o n?mero ou o nome, ex.: d 7 ou d js." in lines  # é: 2 bytes
    assert "> 4??? n?o ? carta: use o n?mero ou o nome, ex.: d 7 ou d js." in lines
    assert "Sair da partida? (s/n) A partida continua." in lines  # "não" read as "n??o"
    assert out.endswith("At? a pr?xima!\n")


def test_a_stream_that_encodes_every_character_is_left_strict(
        monkeypatch: pytest.MonkeyPatch) -> None:
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    written = io.BytesIO()
    latin = io.TextIOWrapper(written, encoding="latin-1")
    monkeypatch.setattr(sys, "stdout", utf8)
    monkeypatch.setattr(sys, "stderr", latin)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x"), encoding="ascii"))
    cli_i18n.tolerant_output()
    assert (utf8.errors, latin.errors, sys.stdin.errors) == ("strict", "replace", "replace")
    latin.write("3♦ ç")
    latin.flush()
    assert written.getvalue() == "3? ç".encode("latin-1")
