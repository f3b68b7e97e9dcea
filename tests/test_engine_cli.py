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


@pytest.mark.parametrize(("lang", "lines"), [
    ("pt", ["normal               1         1        0      100,0%        20,7%–100,0%      +12,5",
            "duração da mão: 34,5 vezes, 1.234,0 ações em média",
            "tempo de decisão normal: média 1,25 ms, p99 1,50 ms, máx. 1,50 ms (2 decisões)"]),
    ("en", ["normal                1     1     0    100.0%        20.7%–100.0%      +12.5",
            "deal length: 34.5 turns, 1,234.0 actions on average",
            "decision time normal: mean 1.25 ms, p99 1.50 ms, max 1.50 ms (2 decisions)"]),
    ("it", ["normal               1         1        0      100,0%        20,7%–100,0%      +12,5",
            "durata della mano: 34,5 turni, 1.234,0 azioni in media",
            "tempo di decisione normal: media 1,25 ms, p99 1,50 ms, max 1,50 ms "
            "(2 decisioni)"])])
def test_selfplay_writes_numbers_as_the_locale_does(lang: str, lines: list[str]) -> None:
    from engine.ai.selfplay import Summary, report
    from engine.ai.stats import SideTally
    from engine.cli_i18n import Words

    summary = Summary()
    summary.sides["normal"] = SideTally("normal", wins=1)
    summary.sides["normal"].score.add(12.5)
    summary.turns.add(34.5)
    summary.actions.add(1234.0)
    summary.times["normal"] = [0.001, 0.0015]
    assert report(summary, Words(lang)).splitlines()[1:] == lines


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("pt_BR.UTF-8", "buraco_morto, 2 jogadores, 1 mão, lugares normal,facil",
     "buraco_morto, 2 jogadores, 2 mãos, lugares normal,facil"),
    ("en_US.UTF-8", "buraco_morto, 2 players, 1 deal, seats normal,facil",
     "buraco_morto, 2 players, 2 deals, seats normal,facil"),
    ("it_IT.UTF-8", "buraco_morto, 2 giocatori, 1 mano, posti normal,facil",
     "buraco_morto, 2 giocatori, 2 mani, posti normal,facil")])
def test_selfplay_counts_deals_with_plural_forms(
        lang: str, one: str, two: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from engine.ai.selfplay import main as selfplay_main

    monkeypatch.setenv("LANG", lang)
    for games in ("1", "2"):
        assert selfplay_main(["--variant", "biriba", "--players", "2", "--games", games]) == 0
    heads = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("buraco_")]
    assert heads == [one, two]


def test_the_cli_template_holds_the_command_lines_msgids() -> None:
    from babel.messages.extract import extract_from_file
    from babel.messages.pofile import read_po

    root = Path(__file__).resolve().parents[1]
    found: set[str] = set()
    for name in ("engine/__main__.py", "engine/ai/selfplay.py", "engine/record.py"):
        for _line, msg, _c, _x in extract_from_file(
                "python", root / name, keywords={"_": None, "n": (1, 2),
                                                 "IllegalAction": (2,),
                                                 "MalformedRecord": (1,)}):
            found.add(msg if isinstance(msg, str) else msg[0])
    with (root / "engine" / "locale" / "cli.pot").open("rb") as fh:
        pot = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(fh) if m.id}
    assert found == pot


@pytest.mark.parametrize(("lang", "messages"), [
    ("pt_BR.UTF-8", ["primeiro compre do monte ou pegue o lixo",
                     "ação 0: ação sem 'seat' válido",
                     "formato desconhecido: 'x' (esperado 'buraco-record/3')",
                     "{path} não é JSON válido (linha 1, coluna 2)"]),
    ("en_US.UTF-8", ["first draw from the stock or take the discard pile",
                     "action 0: action without a valid 'seat'",
                     "unknown format: 'x' (expected 'buraco-record/3')",
                     "{path} is not valid JSON (line 1, column 2)"]),
    ("it_IT.UTF-8", ["prima pesca dal tallone o prendi gli scarti",
                     "azione 0: azione senza un 'seat' valido",
                     "formato sconosciuto: 'x' (atteso 'buraco-record/3')",
                     "{path} non è JSON valido (riga 1, colonna 2)"])])
def test_replay_reasons_speak_the_locale(
        lang: str, messages: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(Path(EXAMPLE).read_text(encoding="utf-8"))
    files = []
    for name, change in (("illegal", {"actions": [{"seat": 0, "do": "discard",
                                                   "card": "5c"}]}),
                         ("no_seat", {"actions": [{"do": "draw"}]}),
                         ("format", {"format": "x"})):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({**record, **change}), encoding="utf-8")
        files.append(str(path))
    broken = tmp_path / "broken.json"
    broken.write_text("{,}", encoding="utf-8")
    monkeypatch.setenv("LANG", lang)
    assert main(["replay", *files, str(broken)]) == 2
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [d["error"]["message"] for d in out] == [
        *messages[:3], messages[3].format(path=broken)]
    assert [d["error"]["code"] for d in out] == ["must_draw", *["malformed_record"] * 3]
