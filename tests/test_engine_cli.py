"""``python -m engine`` (issue 14 part 3): ``replay`` takes several files and ``--help``,
and the command line speaks the locale's language (LANG: pt-BR, en, it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.__main__ import main
from engine.cli_i18n import env_lang

EXAMPLE = str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "buraco.json")


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def test_replay_takes_several_files_and_exits_with_the_worst(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "nope.json")
    assert main(["replay", EXAMPLE, EXAMPLE]) == 0
    assert main(["replay", EXAMPLE, missing]) == 2
    lines = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
    assert [(d["file"], d["ok"]) for d in lines] == [
        (EXAMPLE, True), (EXAMPLE, True), (EXAMPLE, True), (missing, False)]
    assert lines[3]["error"]["message"] == (
        f"não consegui ler {missing}: arquivo não encontrado")
    assert main(["replay", EXAMPLE]) == 0
    assert "file" not in json.loads(capsys.readouterr().out)  # one file: as before


def test_replay_help_and_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("uso: python -m engine replay [-h] ARQUIVO.json [ARQUIVO.json ...]")
    assert "mostra esta ajuda e sai" in out
    assert main(["replay"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "python -m engine replay: erro: faltam os argumentos: ARQUIVO.json")
    assert main([]) == 2 and main(["play"]) == 2
    assert "erro: argumento COMANDO: escolha inválida: 'play'" in capsys.readouterr().err


def test_the_engine_command_line_speaks_the_locale(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m engine [-h] COMMAND ...")
    assert "replay game records and print the result as JSON" in out
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    assert main(["replay"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "python -m engine replay: errore: mancano gli argomenti: FILE.json")


@pytest.mark.parametrize(("lang", "missing", "folder"), [
    ("pt_BR.UTF-8", "não consegui ler {path}: arquivo não encontrado",
     "não consegui ler {path}: é uma pasta, não um arquivo"),
    ("en_US.UTF-8", "could not read {path}: file not found",
     "could not read {path}: it is a folder, not a file"),
    ("it_IT.UTF-8", "impossibile leggere {path}: file non trovato",
     "impossibile leggere {path}: è una cartella, non un file")])
def test_replay_says_why_a_file_cannot_be_read_in_the_locale(
        lang: str, missing: str, folder: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANG", lang)
    nope = str(tmp_path / "nope.json")
    assert main(["replay", nope]) == 2
    assert main(["replay", str(tmp_path)]) == 2
    lines = [json.loads(ln)["error"]["message"] for ln in capsys.readouterr().out.splitlines()]
    assert lines == [missing.format(path=nope), folder.format(path=tmp_path)]


def test_locale_names_give_one_of_the_three_languages() -> None:
    assert [env_lang(env) for env in (
        {}, {"LANG": "C.UTF-8"}, {"LANG": "en_GB.UTF-8"}, {"LANG": "it_IT@euro"},
        {"LANGUAGE": "it:en", "LANG": "en_US"}, {"LC_ALL": "pt_BR.UTF-8", "LANG": "en_US"},
        {"LANG": "de_DE.UTF-8"})] == ["pt", "pt", "en", "it", "it", "pt", "pt"]


def test_selfplay_speaks_one_language_refusals_included(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from engine.ai.selfplay import main as selfplay_main

    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert selfplay_main(["--players", "0"]) == 2
    assert selfplay_main(["--variant", "buraco target"]) == 2
    assert selfplay_main(["--jobs", "0"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "buraco takes 2, 3, 4 or 6 players, not 0",
        "option without a value: 'target' (use key=value)",
        "--jobs must be at least 1"]
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    with pytest.raises(SystemExit):
        selfplay_main(["--help"])
    assert "mostra questo aiuto ed esce" in capsys.readouterr().out
