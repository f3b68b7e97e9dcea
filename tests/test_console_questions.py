"""Issue 30: a command typed as the answer to one of the terminal's questions was lost
(``c`` at "Começar uma partida de Tranca? (s/n)" was read as "no" and vanished). Every
question takes its answers, says in one line what it expects otherwise and asks again; a
command typed there is not run and the line says so (:mod:`adapters.console.question`)."""

from __future__ import annotations

from pty_support import Terminal
from test_console import play_seeded_duel
from test_console_numbers import ROBOT, play
from test_console_wild import WILDS

VARIANT_QUESTION = ("Começar uma partida de Tranca (2 jogadores: você e 1 robô; uma mão só)? "
                    "Esta acaba aqui. (s/n) ")
QUIT_QUESTION = "Sair da partida? (s/n) "
YES_NO = "Responda s (sim) ou n (não)."


def test_the_yes_no_questions_of_python_m_bot_play_keep_what_is_typed() -> None:
    """As a person types in ``python -m bot play``: a move, ``ajuda``, ``q`` and Enter at
    the variant question, then a move at the quit question: each is answered with one
    line and the question again; only s or n answer it."""
    term = Terminal.bot_play("--players", "2")
    try:
        term.expect("> ")
        term.type("c")  # a move played: switching variants now asks first
        term.expect("> ")
        term.type("tranca")
        term.expect(VARIANT_QUESTION)
        for typed, said in [("d 1", "O comando d 1 não foi executado. " + YES_NO),
                            ("ajuda", "O comando ajuda não foi executado. " + YES_NO),
                            ("q", "O comando q não foi executado. " + YES_NO),
                            ("", YES_NO), ("talvez", YES_NO)]:
            term.type(typed)
            assert term.expect(VARIANT_QUESTION).strip().splitlines()[-1] == said
        term.type("n")
        term.expect("A partida continua.")
        term.expect("> ")
        term.type("d 1")  # the person's move was not lost: still theirs to play
        term.expect("> ")
        term.type("q")
        term.expect(QUIT_QUESTION)
        term.type("c")
        assert term.expect(QUIT_QUESTION).strip().splitlines()[-1] == (
            "O comando c não foi executado. " + YES_NO)
        term.type("sim")
        term.expect("Até a próxima!")
        assert term.close() == 0
        assert "Traceback" not in term.text
        assert term.text.count("Você comprou do monte e descartou") >= 1
    finally:
        if term.proc.poll() is None:
            term.close(timeout=0)


async def test_a_command_at_the_wild_question_is_not_run_and_the_question_comes_again(
) -> None:
    text = await play(["c", "b 1 2 3", "d 5", "ajuda", "x", "2", "q", "s"], [WILDS, ROBOT],
                      "2c")
    question = "Onde fica o curinga? 1) Baixar 2♦ 3♦ 2♦(4)  2) Baixar 2♦(A) 2♦ 3♦ (Enter = 1)"
    assert text.count(question) == 4
    assert "O comando d 5 não foi executado. Escolha um número de 1 a 2." in text
    assert "O comando ajuda não foi executado. Escolha um número de 1 a 2." in text
    assert "\nEscolha um número de 1 a 2.\n" in text  # "x" is no command
    assert "│   1) 2♦(A) 2♦ 3♦ " in text  # the answer 2 was laid; 5♥ was not discarded
    assert "descartou 5♥" not in text


async def test_a_move_typed_between_deals_deals_the_next_one_and_says_it_was_not_run(
) -> None:
    """Between deals any move deals the next deal (README); the move itself is not run,
    and the terminal says so instead of dropping it silently."""
    text = await play_seeded_duel()
    end = text.index("Fim da mão 1.")
    after = text[end:]
    said = "O comando c não foi executado. A mão tinha acabado: a próxima começa agora."
    assert said in after and after.index(said) < after.index("Fim da mão 2.")
