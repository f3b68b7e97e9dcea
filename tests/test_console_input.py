"""Terminal play: every typed number is checked before a button is built (no crash on
huge numbers), console-worded messages, help for the variant only, goodbye, seat count,
the table line of the last move before the deal result, and the actions line."""

from __future__ import annotations

from types import SimpleNamespace

from test_console import after_intro, play_seeded_duel, scripted
from test_service_support import ANA, CHAT

from adapters.console import render
from adapters.console.app import help_text
from bot import hands, narration, views
from bot.effects import Button, View, pack
from bot.i18n import Translator
from bot.model import Game, Seat
from bot.play import ButtonData
from engine.cards import Card
from engine.melds import make_meld
from engine.rules import make_rules
from engine.state import Event

LONG = "1" * 52
PT = Translator("pt")
NAMES = ("Cartas também por nome: d js, b 4d 5d 6d, e 1 9c. Naipes: c ou p = ♣ paus, d ou o = "
         "♦ ouros, h = ♥ copas, s ou e = ♠ espadas.")
JOKER = NAMES[:-1] + "; curinga jk."
LISTS = ("Listas: b 1 2 3, b 1,2,3 ou b 1-3 (as cartas 1 a 3), também em e, l e entre jogos "
         "com /. Ctrl-L limpa a tela e mostra a mesa de novo.")
MORE = ("Mais: regras = regras da variante · idioma en = trocar o idioma (pt, en, it) · "
        "exportar = salvar o registro (no fim da partida) · ranking [semana|mes|ano|sempre], "
        "perfil = suas partidas contadas")


async def play(variant: str, lines: list[str]) -> str:
    game, out = scripted(lines, width=200)
    assert await game.setup(variant, 2)
    await game.play()
    return out.getvalue()


def answers(text: str) -> list[str]:
    """The console's lines that are neither panels nor prompts, after the first screen's
    variant lines (adapters/console/choose.py, tested in tests/test_variants_offered.py)."""
    return [ln for ln in after_intro(text).splitlines()
            if ln and ln[0] not in "╭│╰" and not ln.startswith(">")]


async def test_huge_and_out_of_range_card_numbers_are_refused_and_the_game_goes_on() -> None:
    text = await play("buraco", ["c", f"d {LONG}", "d " + "9" * 5000, f"b 1 {'7' * 60} 2",
                                 f"e {'5' * 60} 1", "b 13 14 15", "d 0", "d x", "d ²", "d 1",
                                 "q"])
    assert answers(text)[:8] == [
        "Não há carta 111111111111… na sua mão (1 a 12).",
        "Não há carta 999999999999… na sua mão (1 a 12).",
        "Não há carta 777777777777… na sua mão (1 a 12).",
        "Seu lado ainda não tem jogos.",
        "Não há carta 13 na sua mão (1 a 12).",
        "Não há carta 0 na sua mão (1 a 12).",
        "x não é carta: use o número ou o nome, ex.: d 7 ou d js.",
        "² não é carta: use o número ou o nome, ex.: d 7 ou d js.",
    ]
    assert answers(text)[8] == "Partida: Você × Robô 2"  # the robot's turn is in the table
    assert "│ Robô 2 comprou do monte e descartou A♣." in text
    assert answers(text)[-1] == "Até a próxima!"  # the game went on
    assert "│ Lixo: 5♣ A♣ · Monte: 80" in text
    assert text.rstrip().endswith("Até a próxima!")


async def test_an_extension_before_drawing_gets_the_engines_reason_not_unknown_button(
        ) -> None:
    """RULES C11 (draw, then melds, then a discard): ``e 1 1`` in the draw phase is refused
    as ``b`` is, "Primeiro compre…", never "Botão desconhecido." (no meld exists yet)."""
    text = await play("buraco", ["e 1 1", "e 7 2", "q", "s"])
    assert answers(text)[:2] == ["Primeiro compre do monte ou pegue o lixo."] * 2


async def test_invisible_characters_of_a_command_are_shown_as_question_marks() -> None:
    """Trials: a word of control or zero-width characters was echoed as nothing
    ("Comando desconhecido: ."), and "\\x00c" as the valid command "c"."""
    text = await play("buraco", ["\x01\x02", "\u200b", "\x00c", "\x7f", "q", "s"])
    assert answers(text)[:4] == ["Comando desconhecido: ??. Digite ? para ajuda.",
                                 "Comando desconhecido: ?. Digite ? para ajuda.",
                                 "Comando desconhecido: ?c. Digite ? para ajuda.",  # not "c"
                                 "Comando desconhecido: ?. Digite ? para ajuda."]


async def test_console_worded_messages() -> None:
    text = await play("buraco", ["b 1", "c 999", "\x1b[A", "c", "b 1 1 1", "e 1 1 1", "d",
                                 "e", "e 0 1", "r 2", "q", "s"])
    assert answers(text) == [
        "Primeiro compre do monte ou pegue o lixo.",  # the engine's reason
        "c não leva números.",
        "Comando desconhecido: ?[a. Digite ? para ajuda.",
        "Carta 1 repetida.",
        "Seu lado ainda não tem jogos.",
        "Diga quais cartas: d 7.",
        "Use: e JOGO CARTAS (ex.: e 2 4 5 ou e 1 9c).",
        "Seu lado ainda não tem jogos.",
        "r não leva números.",
        "Partida: Você × Robô 2", "Total: 0 × 0", "Ranking:",
        "(nenhuma partida terminada ainda)", "Sair da partida? (s/n) <s>",
        "Até a próxima!",
    ]
    assert not any("\x1b" in line for line in answers(text))


async def test_pile_onto_meld_messages_in_a_closed_pile_variant() -> None:
    text = await play("tranca", ["lj", "lj x", f"lj {LONG}", "lj 0", "lj 1 2", "lj 9", "q",
                                 "s"])
    none = "Seu lado ainda não tem jogos."  # as "e 9 1" says it: no meld to name yet
    assert answers(text)[:6] == ["Diga em qual jogo: lj 2.", "Use números de jogos: ex. lj 2.",
                                 none, none, "Um jogo só: lj 2.", none]


async def test_pile_onto_a_meld_past_the_sides_melds_names_them_not_a_button() -> None:
    game, out = scripted(["lj 9", "lj 3", "q", "s"], width=200)
    assert await game.setup("justificado", 2, ["normal"])
    assert game.table is not None
    game.table = game.table.model_copy(update={"lines": [
        "Você: 0 pts · nesta mão: 90 em jogos", "  1) 6♥ 6♠ 6♠", "  2) A♣ A♦ A♠",
        "Robô 2: 0 pts · nesta mão: 90 em jogos", "  1) 7♥ 7♠ 7♠", "  2) 8♣ 8♦ 8♠",
        "  3) 9♣ 9♦ 9♠", "Cartas na mão: Você 11 · Robô 2 11"]})
    game._shown = game.snapshot()  # the table above stays as set
    await game.play()
    assert answers(out.getvalue())[:2] == ["Não há jogo 9 (jogos 1 a 2).",
                                           "Não há jogo 3 (jogos 1 a 2)."]


async def test_a_meld_past_the_only_one_says_there_is_only_meld_1() -> None:
    game, out = scripted(["lj 2", "q", "s"], width=200)
    assert await game.setup("justificado", 2, ["normal"])
    assert game.table is not None
    game.table = game.table.model_copy(update={"lines": [
        "Você: 0 pts · nesta mão: 30 em jogos", "  1) 6♥ 6♠ 6♠",
        "Robô 2: 0 pts · nesta mão: 0 em jogos", "  (sem jogos)",
        "Cartas na mão: Você 11 · Robô 2 11"]})
    game._shown = game.snapshot()
    await game.play()
    assert answers(out.getvalue())[0] == "Não há jogo 2 (só o jogo 1)."


COACH = ("dica = a jogada do robô forte · revisao = suas decisões mais caras da última mão")


async def test_help_lists_only_the_commands_of_the_variant() -> None:
    assert help_text(make_rules("buraco", {}), PT) == (
        "Comandos: c = comprar do monte · l = pegar o lixo · b 1 2 3 = baixar as cartas "
        "1 2 3 (vários jogos: b 1 2 3 / 7 8 9) · e 2 4 5 = juntar as cartas 4 5 ao jogo 2 · "
        "d 7 = descartar a carta 7 · r = abrir o lixo com a carta comprada e comprar outra · "
        "n = próxima mão · " + COACH + " · p = placar · ? = ajuda · q = sair\n" + NAMES + "\n" +
        LISTS + "\n" +
        MORE + "\nPara bater: não precisa de canastra.")
    assert help_text(make_rules("tranca", {}), PT) == (
        "Comandos: c = comprar do monte · l = pegar o lixo · l 4 5 = pegar o lixo "
        "justificando com as cartas 4 5 · lj 2 = pôr o topo do lixo no seu jogo 2 · "
        "b 1 2 3 = baixar as cartas 1 2 3 (vários jogos: b 1 2 3 / 7 8 9) · e 2 4 5 = "
        "juntar as cartas 4 5 ao jogo 2 · d 7 = descartar a carta 7 · t 4 = baixar o 3 "
        "vermelho (carta 4) · n = próxima mão · " + COACH + " · p = placar · ? = ajuda · q = sair\n"
        + NAMES +
        "\n" + LISTS + "\n" + MORE + "\n"
        "Para bater e pegar o morto: não precisa de canastra; "
        "para bater e encerrar a mão: precisa de uma canastra limpa.")
    assert help_text(make_rules("justificado", {}), Translator("en")).startswith(
        "Commands: c = draw from the stock · l = take the discard pile · l 4 5 = take the "
        "discard pile justifying it with cards 4 5 · lj 2 = put the top")


def test_help_names_the_joker_jk_only_with_jokers_in_the_deck() -> None:
    def names(rules: object, _: Translator = PT) -> str:
        return help_text(rules, _).splitlines()[1]
    assert names(make_rules("buraco", {"jokers": True})) == JOKER
    assert names(None) == JOKER  # no table: every command and name
    assert [names(make_rules(preset, {})) for preset in
            ("buraco", "tranca", "justificado", "altaneira")] == [NAMES] * 4
    assert names(make_rules("buraco", {"jokers": True}), Translator("en")).endswith(
        "s or e = ♠ spades; joker jk.")
    assert names(make_rules("buraco", {"jokers": True}), Translator("it")).endswith(
        "s/e = ♠ picche; jolly jk.")
    assert names(make_rules("tranca", {}), Translator("en")).endswith("s or e = ♠ spades.")


async def test_help_lists_n_for_the_next_deal() -> None:
    assert "· n = próxima mão ·" in help_text(None, PT).splitlines()[0]
    assert "· n = next deal ·" in help_text(None, Translator("en")).splitlines()[0]
    assert "· n = prossima mano ·" in help_text(None, Translator("it")).splitlines()[0]


async def test_goodbye_on_q_and_on_end_of_input() -> None:
    game, out = scripted([], width=200)
    assert await game.setup("buraco", 2)
    await game.play()  # the script is empty: EOF at the first prompt, then at "Sair?"
    assert out.getvalue().endswith(
        "╯\n\nPartida: Você × Robô 2\nTotal: 0 × 0\nRanking:\n"
        "(nenhuma partida terminada ainda)\n\nAté a próxima!\n")
    assert out.getvalue().count("Até a próxima!") == 1


async def test_a_seat_count_the_variant_refuses_adds_no_ai_seat() -> None:
    for variant, players, allowed in (("buraco", 7, "2, 3, 4 ou 6"), ("buraco", 0, "2, 3, 4 ou 6"),
                                      ("tranca", 6, "2 ou 4"), ("altaneira", 6, "4"),
                                      ("buraco", 10**20, "2, 3, 4 ou 6")):
        game, out = scripted([], width=200)
        assert not await game.setup(variant, players)
        assert out.getvalue() == (
            f"Esta variante joga com {allowed} jogadores; a mesa tem {players}.\n")
        assert game.table is None  # no table opened, no AI seat added


async def test_the_table_with_the_last_move_comes_before_the_deal_result() -> None:
    lines = (await play_seeded_duel()).splitlines()
    end = lines.index("Fim da mão 1.")
    assert lines[end - 1].endswith("baixou 10♦ 10♥ 10♠ e bateu."), lines[end - 3:end + 1]
    won = next(i for i, ln in enumerate(lines) if ln.startswith("Fim da partida!"))
    assert lines[won] == "Fim da partida! Vencedor: Robô 2 com 2100 pontos."
    assert lines[won - 1].startswith("Placar: ")


def test_several_melds_and_extensions_read_apart() -> None:
    game = Game(id="g", chat=CHAT, creator=ANA, preset="buraco", created=0, touched=0,
                seats=[Seat(player=ANA), Seat(ai="normal")])
    two = {"melds": [["4d", "5d", "6d"], ["9c", "9h", "9s"]], "extend": []}
    mixed = {"melds": [["4d", "5d", "6d"], ["9c", "9h", "9s"]],
             "extend": [{"meld": 2, "cards": ["Qd", "Kd"]}]}
    ext = {"melds": [], "extend": [{"meld": 0, "cards": ["7c"]}, {"meld": 2, "cards": ["Qd"]}]}
    said = []
    for seat, pub in ((0, two), (1, mixed), (0, ext)):
        game.last = [narration.describe(Event("melded", seat, pub), 0, [], False) or ("", {})]
        said.append(views.last_text(game, PT))
    assert said == ["Ana baixou 4♦ 5♦ 6♦ e 9♣ 9♥ 9♠.",
                    "Robô 2 baixou 4♦ 5♦ 6♦ e 9♣ 9♥ 9♠, e juntou Q♦ K♦ ao jogo 3.",
                    "Ana juntou 7♣ ao jogo 1 e Q♦ ao jogo 3."]
    game.last = [narration.describe(Event("melded", 1, mixed), 0, [], False) or ("", {})]
    assert views.last_text(game, Translator("en")) == (
        "AI 2 melded 4♦ 5♦ 6♦ and 9♣ 9♥ 9♠, and added Q♦ K♦ to meld 3.")


def test_a11_no_pile_button_onto_a_run_whose_natural_two_is_laid() -> None:
    """RULES A11 (altaneira): a 2♥ on top of the pile may join 3♥ 4♥ 5♥ as its natural 2,
    but not A♥ 2♥ 3♥ 4♥, where it could only be the wild: only "Lixo → 2" is offered."""
    rules = make_rules("altaneira", {})
    laid = make_meld([Card.parse(c) for c in ("Ah", "2h", "3h", "4h")], rules)
    open_slot = make_meld([Card.parse(c) for c in ("3h", "4h", "5h")], rules)
    view = SimpleNamespace(melds=[[laid, open_slot], []], side=0, pile=[Card.parse("2h")],
                           rules=rules)
    hint: list[list[ButtonData]] = [
        [{"label": f"Lixo → {k + 1}", "data": pack("g", 1, "p", k)} for k in range(2)]]
    assert [[b["label"] for b in row] for row in hands._fitting(hint, view)] == [["Lixo → 2"]]


def test_pile_hints_only_for_melds_the_top_card_fits_with_the_command_to_type() -> None:
    rules = make_rules("tranca", {})
    sixes = make_meld([Card.parse(c) for c in ("6h", "6s", "6s")], rules)
    aces = make_meld([Card.parse(c) for c in ("Ac", "Ad", "As")], rules)
    view = SimpleNamespace(melds=[[sixes, aces], []], side=0, pile=[Card.parse("Ah")],
                           rules=rules)
    hint: list[list[ButtonData]] = [
        [{"label": "Pegar o lixo", "data": pack("g", 1, "p")}],
        [{"label": f"Lixo → {k + 1}", "data": pack("g", 1, "p", k)} for k in range(2)]]
    kept = hands._fitting(hint, view)
    assert [[b["label"] for b in row] for row in kept] == [["Pegar o lixo"], ["Lixo → 2"]]
    shown = View.model_validate({"title": "Sua mão", "buttons": kept})
    assert render.actions_text(shown, PT) == "Pegar o lixo (l) · Lixo → 2 (lj 2)"
    play_phase = View(title="Sua mão", buttons=[
        [Button(label="Baixar", data=pack("g", 1, "m")),
         Button(label="+1", data=pack("g", 1, "e", 0)),
         Button(label="+2", data=pack("g", 1, "e", 1))],
        [Button(label="Descartar", data=pack("g", 1, "d"))]])
    assert render.actions_text(play_phase, PT) == (
        "Baixar (b N N N) · Juntar a um jogo (e J N N) · Descartar (d N)")


def test_the_italian_suit_letters_are_set_apart_by_a_slash_not_the_word_o() -> None:
    """A trial read "c o p = ♣, d o o = ♦" as odd: "o" is Italian for "or" and a suit
    letter (oros) too."""
    from adapters.console.commands import CARD_NAMES

    assert Translator("it")(CARD_NAMES[False]) == (
        "Carte anche per nome: d js, b 4d 5d 6d, e 1 9c. Semi: c/p = ♣ fiori, d/o = ♦ "
        "quadri, h = ♥ cuori, s/e = ♠ picche.")
