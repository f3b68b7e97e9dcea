"""Issue 14 part 3, the terminal: refusals with the example of the command typed, cards
by name, hand numbers that stay put during a turn, ``q`` that asks, no redraw on an
empty line, line editing, ``regras``/``placar``/``idioma``/``exportar``, the standings of
every side, and the language of ``python -m bot`` (LANG, ``--idioma``)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from rich.console import Console
from test_console import scripted
from test_console_input import answers, play

from bot import __main__ as cli
from bot import startup
from engine.cards import Card


@pytest.fixture(autouse=True)
def _no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


async def test_refusals_give_the_example_of_the_command_typed() -> None:
    text = await play("tranca", ["b x", "t x", "l x", "e 1 x", "c", "b", "d", "d 1 2",
                                 "b 1 2 3 /", "d 1 / 2", "q", "s"])
    assert answers(text)[:10] == [
        "x não é carta: use o número ou o nome, ex.: b 1 2 3 ou b 4d 5d 6d.",
        "x não é carta: use o número ou o nome, ex.: t 4 ou t 3h.",
        "x não é carta: use o número ou o nome, ex.: l 4 5 ou l 4d 5d.",
        "x não é carta: use o número ou o nome, ex.: e 2 4 5 ou e 1 9c.",
        "Diga quais cartas: b 1 2 3.",  # not "Selecione as cartas primeiro."
        "Diga quais cartas: d 7.",
        "Uma carta só: d 7.",  # not "Selecione uma carta só."
        "Diga quais cartas: b 1 2 3.",
        "Só b separa jogos com /: ex. b 1 2 3 / 7 8 9.",
        "Partida: Você × Robô 2",  # the score q shows: each problem said once
    ]
    assert "Selecione" not in text


async def test_commands_of_other_variants_are_refused_without_their_example() -> None:
    text = await play("buraco", ["lj 1", "lj", "t 4", "c", "l 4 5", "q", "s"])
    assert answers(text)[:4] == [
        "lj não existe nesta variante. Digite ? para ajuda.",
        "lj não existe nesta variante. Digite ? para ajuda.",
        "t não existe nesta variante. Digite ? para ajuda.",
        "Nesta variante o lixo se pega sem cartas: l.",
    ]


async def test_long_typed_words_are_cut_when_shown_back() -> None:
    text = await play("buraco", ["z" * 300, "c", "d " + "x" * 300, "d 9" + "9" * 300, "q", "s"])
    assert answers(text)[:3] == [
        "Comando desconhecido: zzzzzzzzzzzz…. Digite ? para ajuda.",
        "xxxxxxxxxxxx… não é carta: use o número ou o nome, ex.: d 7 ou d js.",
        "Não há carta 999999999999… na sua mão (1 a 12).",
    ]


async def test_a_draw_keeps_the_hand_numbers_and_marks_the_new_card() -> None:
    # "d 6" typed from the screen before the draw still means A♥ (sorted, the drawn J♥
    # would have made it J♥)
    text = await play("buraco", ["c", "d 6", "q", "s"])
    assert "│ 1:5♣  2:3♦  3:10♦  4:Q♦  5:Q♦  6:A♥  7:5♥  8:8♥  9:9♥  10:6♠  11:K♠  12:•J♥ " in text
    assert "* = nova" not in text  # one mark per card, the legend only with a "*"
    assert "│ Lixo: A♥ A♣ · Monte: 80" in text


async def test_cards_typed_by_name() -> None:
    text = await play("tranca", ["c", "t 3d", "d 7c", "b qd qd qd", "d AH", "q", "s"])
    assert "Você comprou do monte e baixou o 3♦." in text
    assert answers(text)[:2] == ["Não há 7♣ na sua mão.", "Não há outro Q♦ na sua mão."]
    assert "│ 1:5♣  2:8♦  3:10♦  4:Q♦  5:Q♦  6:5♥  7:8♥  8:9♥  9:6♠  10:K♠ │" in text  # A♥ gone


def test_card_names_in_both_letter_sets_and_the_clubs_letter() -> None:
    from adapters.console import typed

    assert [str(typed.card_of(w)) for w in ("js", "JE", "10h", "4o", "4d", "7p", "7c", "7♥",
                                            "jk")] == [
        "J♠", "J♠", "10♥", "4♦", "4♦", "7♣", "7♣", "7♥", "🃏"]
    assert [typed.card_of(w) for w in ("7", "x", "1z", "")] == [None, None, None, None]
    codes = ["7c", "7h", "Qd", "Qd"]
    assert typed.positions(["qd", "qd", "7h"], codes, set()) == [2, 3, 1]
    assert typed.card_of("7c") == Card.parse("7♣")


async def test_q_asks_first_and_shows_the_score() -> None:
    text = await play("buraco", ["q", "n", "c", "q", "s"])
    assert answers(text)[:7] == [
        "Partida: Você × Robô 2", "Total: 0 × 0", "Ranking:",
        "(nenhuma partida terminada ainda)", "Sair da partida? (s/n) <n>",
        "A partida continua.", "Partida: Você × Robô 2"]
    assert "Você comprou do monte." in text  # the game went on after "n"
    assert text.rstrip().endswith("Até a próxima!")


async def test_an_empty_line_does_not_redraw_the_table() -> None:
    text = await play("buraco", ["", "  ", "x", "d 1", "c", "b 1 2", "q", "s"])
    assert text.count("╭") == 4  # table and hand at the start and after "c", not after
    # the empty lines, the slip, or the moves the engine refused
    assert answers(text)[:3] == ["Comando desconhecido: x. Digite ? para ajuda.",
                                 "Primeiro compre do monte ou pegue o lixo.",
                                 "Um jogo precisa de pelo menos 3 cartas."]


def test_the_prompt_has_line_editing_and_history() -> None:
    from adapters.console.app import line_reader

    sys.modules.pop("readline", None)
    assert line_reader() is input
    assert "readline" in sys.modules  # input() now edits lines and keeps history


async def test_terminal_rules_score_and_language() -> None:
    text = await play("buraco", ["regras", "regras tranca", "idioma", "idioma en", "p", "q",
                                 "y"])
    said = answers(text)
    assert said[:3] == ["Buraco", "Jogadores: 2, 3, 4, 6", "Meta: 1500 pontos"]
    assert "Tranca" in said and "Idiomas: pt (Português (Brasil)), en (English), it " \
        "(Italiano). Use: idioma en." in said
    assert "Language: English." in said and "Group language: English." not in said
    assert "Your hand (11 cards)" in text and "│ Actions: Draw from the stock (c)" in text
    assert said[-6:] == ["Match: You × AI 2", "Total: 0 × 0", "Ranking:",
                         "(no finished match yet)", "Quit the match? (y/n) <y>",
                         "See you next time!"]


async def test_terminal_regras_states_the_rules_of_the_table_with_its_options() -> None:
    """RULES §2 as this table plays it: the options it was opened with, not the preset's
    defaults (a tester saw "Meta: 1500 pontos" at a table to 3000)."""
    text = await play("buraco target=3000 end_requires=clean_canastra", ["regras", "q", "s"])
    said = answers(text)
    assert said[:3] == ["Buraco", "Jogadores: 2, 3, 4, 6", "Meta: 3000 pontos"]
    assert "Para bater: precisa de uma canastra limpa." in said
    # the terminal takes options as --variant does, not as /novojogo
    assert any(line.startswith("Opções da mesa (--variant 'buraco opção=valor'): target ")
               for line in said)
    # one person, no turn timer: the group table's timer and shuffle are not offered
    words = " ".join(" ".join(said).split())
    assert "reuse_pile_once (lixo volta ao monte uma vez) Nesta mesa:" in words
    assert "(segundos por jogada)" not in words and "(sortear as duplas)" not in words
    assert "Nesta mesa: end_requires=clean_canastra, target=3000, vulnerable_at=1500" in said


async def test_an_unknown_language_is_named_before_the_list() -> None:
    text = await play("buraco", ["idioma xx", "idioma " + "z" * 30, "idioma en", "idioma de",
                                 "q", "y"])
    said = answers(text)
    listed = "pt (Português (Brasil)), en (English), it (Italiano)"
    assert f"Idioma desconhecido: xx. Idiomas: {listed}. Use: idioma en." in said
    assert f"Idioma desconhecido: zzzzzzzzzzzz…. Idiomas: {listed}. Use: idioma en." in said
    assert f"Unknown language: de. Languages: {listed}. Use: language en." in said


async def test_a_whole_match_shows_every_side_and_exports_its_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_console import play_seeded_duel

    monkeypatch.chdir(tmp_path)
    text = await play_seeded_duel(after=["exportar"])
    assert ("Total: -175 × 2100\nClassificação da partida:\n1. Robô 2: 2100 pontos\n"
            "2. Você: -175 pontos\nRanking:") in text
    saved = list(tmp_path.glob("buraco-*.json"))  # a buraco match
    assert len(saved) == 1 and f"Registro da partida salvo em {saved[0]}" in text
    assert json.loads(saved[0].read_text(encoding="utf-8"))["deals"]


async def test_exportar_during_the_match_is_refused() -> None:
    text = await play("buraco", ["exportar", "q", "s"])
    assert answers(text)[0] == "O registro só sai depois do fim da partida."


async def test_the_seat_name_follows_the_language() -> None:
    game, out = scripted(["q", "y"], width=200)
    game._ = type(game._)("en")
    assert await game.setup("buraco", 2)
    await game.play()
    assert "You × AI 2" in out.getvalue()


def test_python_m_bot_help_speaks_the_locale(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    for lang, words in ((None, ["uso: python -m bot play", "mostra esta ajuda e sai",
                                "--idioma IDIOMA", "segundos entre jogadas"]),
                        ("en_US.UTF-8", ["usage: python -m bot play",
                                         "show this help message and exit",
                                         "--idioma LANGUAGE", "seconds between AI moves"]),
                        ("it_IT.UTF-8", ["uso: python -m bot play", "mostra questo aiuto ed esce",
                                         "secondi tra le mosse dei robot"])):
        if lang:
            monkeypatch.setenv("LANG", lang)
        with pytest.raises(SystemExit):
            cli.main(["play", "--help"])
        out = capsys.readouterr().out
        assert all(word in out for word in words), (lang, out)
        assert "options:" not in out or lang == "en_US.UTF-8"


def test_argument_errors_follow_idioma(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["play", "--idioma", "en", "--pause", "x"])
    assert capsys.readouterr().err.splitlines()[-1] == (
        "python -m bot play: error: argument --pause: invalid number of seconds: 'x'")
    with pytest.raises(SystemExit):
        cli.main(["play", "--idioma=it", "--players", "x"])
    assert capsys.readouterr().err.splitlines()[-1] == (
        "python -m bot play: errore: argomento --players: numero di giocatori non valido: 'x'")


def test_settings_errors_follow_the_locale(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    monkeypatch.setenv("TURN_TIMER_S", "5")
    assert cli.main(["play"]) == 2
    assert capsys.readouterr().err == (
        "invalid TURN_TIMER_S ('5'): use a whole number from 10 to 86400 (seconds).\n")


def test_idioma_plays_the_terminal_in_that_language(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    assert cli.main(["play", "--players", "7"]) == 2
    assert capsys.readouterr().out == (
        "Questa variante si gioca in 2, 3 o 4; al tavolo ce ne sono 7.\n")  # bossa_nova
    assert cli.main(["play", "--players", "7", "--idioma", "en"]) == 2
    assert capsys.readouterr().out.startswith("This variant is played by 2, 3 or 4 players")


def test_a_robot_level_count_that_fits_no_seat_count_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--players", "2", "--robos", "facil,dificil"]) == 2
    assert capsys.readouterr().out == (
        "--robos deu 2 níveis para 1 robôs: dê um nível para todos ou um por robô.\n")


def test_a_bad_adapter_setting_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from pydantic import ValidationError

    from adapters.telegram.app import TelegramTuning

    monkeypatch.setenv("TELEGRAM_POLL_INTERVAL", "x")
    with pytest.raises(ValidationError) as bad:
        TelegramTuning()
    assert startup.setup_error(bad.value) == (
        "TELEGRAM_POLL_INTERVAL inválido ('x'): use um número de 0 a 10 (segundos).")


def test_pile_cards_are_starred_the_drawn_card_dotted_and_the_legend_names_both() -> None:
    from adapters.console import render
    from bot.effects import CardFace, View
    from bot.i18n import Translator
    cards = [CardFace(index=i, code=c, text=t, red=False, drawn=(c == "7s"))
             for i, (c, t) in enumerate([("5c", "5♣"), ("7s", "7♠"), ("Kc", "K♣"),
                                          ("Qc", "Q♣")])]
    view = View(title="Sua mão (4 cartas)", lines=["Mesa: x"], cards=cards)
    out = io.StringIO()
    render.show_hand(Console(file=out, width=200, color_system=None), view,
                     Translator("pt"), [0, 1, 2, 3], 3)
    text = out.getvalue()
    assert "│ 1:5♣  2:•7♠  3:K♣*  4:Q♣* " in text
    assert ("│ * = nova nesta vez, • = comprada do monte (no fim: as outras mantêm o número)"
            in text)
    out = io.StringIO()
    render.show_hand(Console(file=out, width=200, color_system=None), view,
                     Translator("pt"), [0, 2, 3, 1], 1)
    assert "│ 1:5♣  2:K♣  3:Q♣  4:•7♠ " in out.getvalue() and "* =" not in out.getvalue()
