"""Terminal play driven by scripted input (issue 4 "Terminal play"): the same service
and effects as the chat adapters, numbered hand, actions allowed now, clear messages."""

from __future__ import annotations

import io

from console_support import played, typed_game
from rich.console import Console
from test_service_support import FakeClock, SeededDecks, make_service, seeded_ai

from adapters.console.app import CHAT, ME, ConsoleGame
from bot import __main__ as cli
from bot.memstore import MemoryStore
from bot.model import decode


def after_intro(text: str) -> str:
    """``text`` without the first screen's lines about the variant played and the others
    (adapters/console/choose.py; tests/test_variants_offered.py reads them): what comes
    after the last line of the list (``"  tranca        Tranca: ..."``, indented) that
    comes before the first panel or prompt."""
    lines = text.splitlines(keepends=True)
    end = 0
    for k, line in enumerate(lines[:20]):
        if line.startswith(("╭", ">")):
            break
        if line.startswith("  "):
            end = k + 1
    return "".join(lines[end:])


def scripted(lines: list[str], width: int = 100) -> tuple[ConsoleGame, io.StringIO]:
    """A terminal game on seeded decks that reads ``lines`` (then end of input), echoing
    each prompt and the first 20 characters typed; returns it and its printed output."""
    return typed_game(lines, SeededDecks(), width, echo_chars=20)


async def test_a_scripted_tranca_turn_with_mistakes_and_help() -> None:
    game, out = scripted(["?", "x", "d 1", "c", "d 99", "d 6", "t 2", "b 1 3 / 4", "d 2",
                          "d 6",
                          "c", "p", "q"])
    assert await game.setup("tranca", None)
    await game.play()
    text = out.getvalue()
    # the numbered hand of the seeded deal and the one action allowed before drawing
    assert "1:5♣  2:3♦  3:10♦  4:Q♦  5:Q♦  6:A♥  7:5♥  8:8♥  9:9♥  10:6♠  11:K♠" in text
    assert "Ações: Comprar do monte (c)" in text
    assert "Comandos: c = comprar do monte" in text
    assert "Comando desconhecido: x. Digite ? para ajuda." in text
    assert "Primeiro compre do monte ou pegue o lixo" in text  # engine's reason
    assert "Ações: Baixar (b N N N) · Descartar (d N) · Baixar o 3 (t N)" in text
    assert "Não há carta 99 na sua mão (1 a 12)." in text
    assert "Baixe o 3 vermelho antes de descartar" in text
    assert "Você comprou do monte e baixou o 3♦." in text and "3 vermelhos baixados: 3♦" in text
    assert "5♣ 10♦: um jogo precisa de pelo menos 3 cartas." in text  # "b 1 3 / 4"
    assert "A carta 2 já saiu da sua mão nesta vez." in text  # the 3♦ laid (issue 30)
    assert "Separado 1" not in text  # a refused meld leaves no selection behind
    # the AI answered, the person's discard went to the pile
    assert "│ Robô 2 comprou do monte e descartou A♣." in text  # the table, told once
    assert text.count("Robô 2 comprou do monte e descartou A♣.") == 1
    # "d 6" was typed from the screen where the drawn 8♦ stood at the end and the laid
    # 3♦ had left number 2 unused: A♥, shown as 6, went (issue 30)
    assert "│ 1:5♣  3:10♦  4:Q♦  5:Q♦  6:A♥  7:5♥  8:8♥  9:9♥  10:6♠  11:K♠  12:•8♦ " in text
    assert "Você comprou do monte, baixou o 3♦ e descartou A♥." in text
    assert "1:5♣  2:8♦  3:10♦  4:Q♦  5:Q♦  6:5♥  7:8♥  8:9♥  9:6♠  10:K♠" in text
    assert "Partida: Você × Robô 2" in text
    assert text.rstrip().endswith(
        "<q>\nPartida: Você × Robô 2\nTotal: 0 × 0\nRanking:\n"
        "(nenhuma partida terminada ainda)\n\nAté a próxima!")  # q shows the score first


async def test_unknown_variant_is_refused() -> None:
    game, out = scripted([])
    assert not await game.setup("pife", None)
    assert "Variante desconhecida: 'pife'" in out.getvalue()


async def test_a_whole_match_to_the_score() -> None:
    """The person always draws and discards their first card; the match ends with the
    final table and the scoreboard."""
    commands = iter(["c", "d 1"] * 200)

    def read(_prompt: str) -> str:
        line = next(commands, None)
        if line is None:  # Ctrl-D at the last prompt
            raise EOFError
        return line

    clock = FakeClock()
    svc = make_service(MemoryStore(clock), clock, deck_fn=SeededDecks(), next_deal_s=0)
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    game = ConsoleGame(svc, console, read=read)
    assert await game.setup("justificado", 2)
    await game.play()
    text = out.getvalue()
    assert "Fim da mão 1." in text
    assert "Fim da partida! Vencedor:" in text
    assert "Ranking:" in text and "1. Você: partidas 1, vitórias 0, pontos " in text


def test_cli_parses_play_options() -> None:
    args = cli.build_parser().parse_args(["play", "--variant", "tranca", "--players", "4"])
    assert (args.command, args.variant, args.players) == ("play", "tranca", 4)


async def play_seeded_duel(after: list[str] | None = None) -> str:
    """A seeded 2-player buraco match in the terminal, the person drawing and discarding
    their first card every turn, then typing ``after`` at the last prompt (the one that
    offers ``exportar``); returns everything the console printed."""
    commands = iter(["c", "d 1"] * 2000)
    last = iter(after or [])

    def read(prompt: str) -> str:
        line = next(last, None) if "exportar" in prompt else next(commands)
        if line is None:
            raise EOFError
        return line

    _game, text = await played(read, "buraco", 2, deck_fn=SeededDecks(), chooser=seeded_ai,
                               next_deal_s=3600)
    return text


async def test_the_last_prompt_answers_what_changes_nothing_until_enter() -> None:
    """After the match: ``regras`` and ``p`` answer, a move or a slip brings the prompt
    back (it says what it takes), Enter ends with the goodbye; nothing quits silently."""
    text = await play_seeded_duel(after=["regras", "d 1", "p", ""])
    tail = text[text.index("Fim da partida!"):]
    rules = tail.index("Buraco\nJogadores: 2, 3, 4, 6\nMeta: 1500 pontos\n")
    assert tail.count("Partida: Você × Robô 2\n") == 2  # the final score, then "p"
    assert tail.index("Partida: Você × Robô 2\n", rules) > rules
    assert "Comando desconhecido" not in tail and "Primeiro compre" not in tail
    # the move is answered, not met by the prompt alone (a trial)
    assert tail.count("A partida acabou: exportar salva o registro, Enter sai.\n") == 1
    assert tail.endswith("1. Você: partidas 1, vitórias 0, pontos -175\nAté a próxima!\n")


async def test_between_deals_any_move_starts_the_next_deal() -> None:
    text = await play_seeded_duel()
    assert "Fim da mão 1." in text and "Fim da mão 2." in text
    assert "A mão terminou: espere a próxima." not in text
    assert "Fim da partida! Vencedor: Robô 2 com 2100 pontos." in text


async def test_robot_levels_are_chosen_seat_by_seat() -> None:
    # `python -m bot play --robos facil,dificil,facil`: one level per AI seat.
    game, _out = scripted(["q"])
    assert await game.setup("buraco", 4, ["facil", "dificil", "facil"])
    store = game.service.store
    gid = await store.chat_game(CHAT.key)
    assert gid is not None
    stored = await store.load_game(gid)
    assert stored is not None
    seats = decode(stored[1]).seats
    assert [s.ai for s in seats] == [None, "facil", "dificil", "facil"]


def test_cli_parses_robot_levels() -> None:
    args = cli.build_parser().parse_args(["play", "--robos", "facil, DIFÍCIL"])
    assert args.levels == ["facil", "dificil"]
    assert cli.build_parser().parse_args(["play"]).levels == ["normal"]


async def test_quitting_closes_the_game_and_a_new_run_starts_afresh() -> None:
    # A run that quits ("q") cancels its game; one that died without quitting (Ctrl-C)
    # leaves it open, and the next run on the same store drops it instead of refusing
    # with "Já há um jogo neste grupo".
    game, out = scripted(["c", "q"])
    assert await game.setup("buraco", 2)
    await game.play()
    assert "Até a próxima!" in out.getvalue()
    after = await game.service.start(CHAT, ME)
    assert [e.text for e in after] == ["Não há jogo aberto neste grupo. Use /novojogo."]
    crashed = ConsoleGame(game.service, Console(file=io.StringIO()), read=game.read)
    assert await crashed.setup("buraco", 2)  # not quit: its game stays open
    again = ConsoleGame(game.service, Console(file=io.StringIO()), read=game.read)
    assert await again.setup("tranca", 2)
    assert again.game_id != crashed.game_id
    assert again.rules.preset == "tranca"


def test_no_card_is_marked_new_once_the_turn_is_over() -> None:
    """``*`` means "came this turn" (the pile, a morto): when the hand view offers no move
    any more (the discard passed the turn, or the deal ended) no card keeps it, and the
    numbers stay put (a trial saw "11:7♠*" under the deal's result)."""
    from bot.effects import Button, CardFace, View

    def hand(codes: list[str], moves: bool, drawn: str = "") -> View:
        faces = [CardFace(index=i, code=c, text=c, red=False, selected=False, group=0,
                          drawn=c == drawn) for i, c in enumerate(codes)]
        row = [Button(label=c, data=f"g|1|t|{i}") for i, c in enumerate(codes)]
        return View(title="mão", lines=[], cards=faces, version=1,
                    buttons=[row] + ([[Button(label="Descartar", data="g|1|d|")]] if moves
                                     else []))

    game, _out = scripted([])
    game._new_hand(hand(["5c", "Kd"], moves=True))
    game._new_hand(hand(["5c", "7s", "Kd", "9h"], moves=True, drawn="9h"))  # pile 7s, stock 9h
    assert (game.order, game.new_cards) == ([0, 2, 1, 3], 2)
    game._new_hand(hand(["5c", "7s", "Kd"], moves=False))  # discarded 9h: the turn is over
    assert (game.order, game.new_cards) == ([0, 2, 1, None], 0)  # 4 unused (issue 30)
    game._new_hand(hand(["5c", "7s", "Kd"], moves=True))  # the next turn: sorted again
    assert (game.order, game.new_cards) == ([0, 1, 2], 0)
