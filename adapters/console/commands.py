"""The terminal's typed commands (issue 4 "Terminal play", issue 14 part 3): each word
checked here, with the example of the command typed, before any button is pressed.

Refusals speak of what to type (``Diga quais cartas: b 1 2 3``), never of buttons, and
come once per problem; typed text shown back is cut (:func:`typed.echo`).
"""

from __future__ import annotations

import re
from typing import Any

from adapters.console import choose, question, typed, wild
from adapters.console.session import ALIASES, CHAT, ME, Session, command_word
from bot import info
from bot.effects import Effect
from bot.i18n import LANGS, N_, Translator, norm_lang

__all__ = ["ALIASES", "CHAT", "ME", "command_word", "help_text", "is_info", "is_quit", "run"]
HELP_PARTS: list[tuple[str, str]] = [
    ("", N_("c = comprar do monte")),
    ("", N_("l = pegar o lixo")),
    ("justified", N_("l 4 5 = pegar o lixo justificando com as cartas 4 5")),
    ("justified", N_("lj 2 = pôr o topo do lixo no seu jogo 2")),
    ("", N_("b 1 2 3 = baixar as cartas 1 2 3 (vários jogos: b 1 2 3 / 7 8 9)")),
    ("", N_("e 2 4 5 = juntar as cartas 4 5 ao jogo 2")),
    ("", N_("d 7 = descartar a carta 7")),
    ("threes", N_("t 4 = baixar o 3 vermelho (carta 4)")),
    ("redraw", N_("r = abrir o lixo com a carta comprada e comprar outra")),
    ("", N_("n = próxima mão")),
    ("", N_("dica = a jogada do robô forte · revisao = suas decisões mais caras da última "
            "mão")),
    ("", N_("p = placar · ? = ajuda · q = sair")),
]
CARD_NAMES = {  # with jokers in the deck or not
    True: N_("Cartas também por nome: d js, b 4d 5d 6d, e 1 9c. Naipes: c ou p = ♣ paus, "
             "d ou o = ♦ ouros, h = ♥ copas, s ou e = ♠ espadas; curinga jk."),
    False: N_("Cartas também por nome: d js, b 4d 5d 6d, e 1 9c. Naipes: c ou p = ♣ paus, "
              "d ou o = ♦ ouros, h = ♥ copas, s ou e = ♠ espadas."),
}
HELP_LISTS = N_("Listas: b 1 2 3, b 1,2,3 ou b 1-3 (as cartas 1 a 3), também em e, l e "
                "entre jogos com /. Ctrl-L limpa a tela e mostra a mesa de novo.")
HELP_MORE = N_("Mais: regras = regras da variante · idioma en = trocar o idioma (pt, en, it) · "
               "exportar = salvar o registro (no fim da partida) · ranking [semana|mes|ano|"
               "sempre], perfil = suas partidas contadas")
EXPORT = {"exportar", "export", "esporta"}
INFO = {"q", "?", "p", "regras", "idioma", "exportar", "ranking",
        "perfil", "verificar", "revisao"}  # also allowed between deals and once the match is over
NO_ARGS = {"c", "r", "n", "p", "?", "q", "exportar", "dica"}
NEEDS = {"lj": "justified", "t": "threes", "r": "redraw"}


def help_text(rules: Any, _: Translator) -> str:
    """``Comandos: c = comprar do monte · ...``: only the commands of ``rules`` (engine
    ``Rules``; None lists them all), then card names (the joker ``jk`` only with jokers
    in the deck) and the other commands, then, for a known variant, the rule that
    decides going out (:func:`bot.info.going_out_rule`, RULES §2 "going out")."""
    applies = _applies(rules)
    parts = [_(msgid) for need, msgid in HELP_PARTS if applies[need]]
    lines = [_("Comandos: {parts}", parts=" · ".join(parts)),
             _(CARD_NAMES[rules is None or rules.jokers]), _(HELP_LISTS), _(HELP_MORE)]
    if rules is not None:
        lines.append(info.going_out_rule(rules, _))
    return "\n".join(lines)


def _applies(rules: Any) -> dict[str, bool]:
    return {"": True,
            "justified": rules is None or rules.pickup_justified,
            "threes": rules is None or rules.red_three != "ordinary",
            "redraw": rules is None or rules.first_player_second_card}


_word = command_word


def is_info(line: str) -> bool:
    """True for a command that changes nothing in the game (allowed between deals)."""
    return _word(line) in INFO


def is_quit(line: str) -> bool:
    """True for ``q`` (and its aliases) alone."""
    return _word(line) == "q"


async def run(game: Session, line: str) -> bool:
    """Do one typed command; False to quit. A card command written against its first
    number (``b1,2,3``, ``d5``) is read as with a space."""
    line = GLUED.sub(r"\1 ", line, count=1)
    words = line.strip().lower().split()
    if not words:
        return True
    cmd, args = _word(line), words[1:]
    _ = game._
    if cmd == "q":
        return _no_args(game, cmd) if args else not await _quit(game)
    if cmd in NO_ARGS and args:
        return _no_args(game, cmd)
    if cmd in NEEDS and not _applies(game.rules)[NEEDS[cmd]]:
        game.say(_("{cmd} não existe nesta variante. Digite ? para ajuda.", cmd=cmd))
    elif cmd == "?":
        game.console.print(help_text(game.rules, _))
    elif cmd in SIMPLE:
        await SIMPLE[cmd](game, args)
    elif cmd in ("l", "b", "d", "t", "e"):
        await _with_cards(game, cmd, args)
    elif choose.is_variant(cmd):
        return not await choose.switch(game, line)
    else:
        game.say(_("Comando desconhecido: {cmd}. Digite ? para ajuda.", cmd=typed.echo(cmd)))
    return True


GLUED = re.compile(r"^(\s*(?:lj|[lbedt]))(?=\d)", re.IGNORECASE)
"""A card command and its first number typed together (``d5``)."""


def _no_args(game: Session, cmd: str) -> bool:
    game.say(game._("{cmd} não leva números.", cmd=cmd))
    return True


async def _quit(game: Session) -> bool:
    """``q``: the score, then "Sair da partida? (s/n)"; True to leave."""
    game.show(await game.service.scoreboard(CHAT, ME))
    answer = question.yes_no(game, game._("Sair da partida? (s/n) "))
    if answer is False:  # None: Ctrl-C or Ctrl-D at the question leaves
        game.console.print(game._("A partida continua."))
        return False
    game.console.print(game._("Até a próxima!"))
    return True


async def _score(game: Session, _args: list[str]) -> None:
    game.show(await game.service.scoreboard(CHAT, ME))


async def _rules(game: Session, args: list[str]) -> None:
    # no preset: the service tells the rules of the table in play, its options included;
    # once the match is over (no table in play) those of the match just played
    if not args and game.rules is not None and game.table is not None \
            and not game.table.buttons:
        game.console.print(info.rules_text(game.rules, game._, CHAT.platform))
        return
    for eff in await game.service.rules_text(CHAT, ME, " ".join(args)):
        game.console.print(getattr(eff, "text", ""))


async def _language(game: Session, args: list[str]) -> None:
    code = norm_lang(" ".join(args)) if args else None
    if code is None:
        game.say(info.languages(game._, " ".join(args),
                                N_("Idiomas: {choices}. Use: idioma en.")))
        return
    game._ = Translator(code)
    said = await game.service.set_language(CHAT, ME, code)  # its reply speaks of a group
    game.show([eff for eff in said if eff.kind != "reply"])
    game.console.print(game._("Idioma: {name}.", name=LANGS[code]))
    game.show(await game.service.show_hand(CHAT, ME))  # the hand panel in the new language


async def _export(game: Session, _args: list[str]) -> None:
    game.show(await game.service.export(CHAT, ME))


async def _verify(game: Session, args: list[str]) -> None:
    """``verificar [jogo]``: the service's ``/verificar`` (issue 35), the terminal's
    finished match checked against its seeds."""
    game.show(await game.service.verify_deal(CHAT, ME, " ".join(args)))


async def _hint(game: Session, _args: list[str]) -> None:
    """``dica`` (issue 37): the hand's "Dica" button, pressed (the service's answer, for
    the person's turn only)."""
    await game.press("dc")


ANALYSING = N_("Analisando a mão... (alguns segundos)")
"""Printed by ``revisao`` before it thinks (a review takes seconds on a loaded machine)."""


async def _review(game: Session, args: list[str]) -> None:
    """``revisao [auto|off]`` (issue 37): the service's ``/revisao`` for the last finished
    deal (its private message; "sent to you privately" means nothing here, a refusal
    does), or the setting that sends it at the end of each deal. A review thinks for
    seconds: a line says so first, at once."""
    if not args:
        game.console.print(game._(ANALYSING))
    said = await game.service.review(CHAT, ME, " ".join(args))
    tells: list[Effect] = [e for e in said if e.kind == "tell"]
    game.show(tells or said)


async def _draw(game: Session, _args: list[str]) -> None:
    await game.press("c")


async def _redraw(game: Session, _args: list[str]) -> None:
    await game.press("r")


async def _next(game: Session, _args: list[str]) -> None:
    await game.next_deal()


async def _onto_meld(game: Session, args: list[str]) -> None:
    args = [word for group in typed.groups_of(" ".join(args)) for word in group]
    if not args:
        game.say(game._("Diga em qual jogo: lj 2."))
        return
    if len(args) > 1:
        game.say(game._("Um jogo só: {example}.", example="lj 2"))
        return
    target = _meld_number(game, args[0], "lj 2", own_melds(game))
    if target is not None:
        await game.press("p", target)


async def _ranking(game: Session, args: list[str]) -> None:
    """``ranking [semana|mes|ano|sempre]``: the service's ``/ranking`` of the terminal
    (its matches count in the season as a group's do, issue 29/30)."""
    game.show(await game.service.ranking(CHAT, ME, " ".join(args)))


async def _profile(game: Session, args: list[str]) -> None:
    """``perfil``: the service's ``/perfil`` of the person at the terminal."""
    game.show(await game.service.profile(CHAT, ME, " ".join(args)))


SIMPLE = {"p": _score, "regras": _rules, "idioma": _language, "exportar": _export,
          "c": _draw, "r": _redraw, "n": _next, "lj": _onto_meld, "ranking": _ranking,
          "perfil": _profile, "verificar": _verify, "dica": _hint, "revisao": _review}


def meld_count(game: Session) -> int | None:
    """How many melds the person's side has (the "+N" buttons of the play phase),
    None outside the play phase (then only 0 and long numbers are refused here)."""
    if game.hand is None:
        return None
    codes = [b.data.split("|")[2] for row in game.hand.buttons for b in row]
    if "m" not in codes:
        return None  # not the play phase: no "+N" buttons to count
    return codes.count("e")


def own_melds(game: Session) -> int | None:
    """How many melds the person's side has, read from the table (any phase; None
    without a table): the person opened the table, so theirs is seat 0, whose side is
    the first one listed, its melds the indented ``k)`` lines under its score line."""
    if game.table is None:
        return None
    count = 0
    for line in game.table.lines[1:]:
        if not line.startswith("  "):
            break  # the next side's score line
        count += bool(_MELD_LINE.match(line))
    return count


_MELD_LINE = re.compile(r"  \d+\) ")


def _meld_number(game: Session, word: str, example: str,
                 count: int | None = None) -> int | None:
    """The 0-based meld index typed as ``word``, or None (message printed); ``count``
    is the number of the side's melds (by default :func:`meld_count`)."""
    count, _ = meld_count(game) if count is None else count, game._
    if not typed.is_number(word):
        game.say(_("Use números de jogos: ex. {example}.", example=example))
        return None
    if count == 0:
        game.say(_("Seu lado ainda não tem jogos."))
        return None
    if len(word) > typed.MAX_DIGITS or int(word) < 1 or (count is not None and int(word) > count):
        shown = typed.echo(word)
        game.say(_("Não há jogo {n}.", n=shown) if count is None else
                 _("Não há jogo {n} (só o jogo 1).", n=shown) if count == 1 else
                 _("Não há jogo {n} (jogos 1 a {max}).", n=shown, max=count))
        return None
    return int(word) - 1


def _card_positions(game: Session, cmd: str, groups: list[list[str]]) -> list[list[int]] | None:
    """0-based shown positions of the typed cards, or None (one message printed)."""
    codes, taken = game.shown_codes(), set[int]()
    try:
        return [typed.positions(group, codes, taken) for group in groups]
    except typed.Typo as slip:
        if slip.msgid == "bad_word":
            number, name = typed.EXAMPLES[cmd]
            game.say(game._("{word} não é carta: use o número ou o nome, ex.: {number} ou "
                            "{name}.", word=slip.kw["word"], number=number, name=name))
        else:
            game.say(game._(slip.msgid, **slip.kw))
        return None


def _shape_slip(game: Session, cmd: str, groups: list[list[str]]) -> str | None:
    """What is wrong with the shape of ``cmd``'s arguments, or None."""
    _, example = game._, typed.EXAMPLES[cmd][0]
    if cmd == "l" and groups[0] and not _applies(game.rules)["justified"]:
        return _("Nesta variante o lixo se pega sem cartas: l.")
    if cmd != "b" and len(groups) > 1:
        return _("Só b separa jogos com /: ex. b 1 2 3 / 7 8 9.")
    if cmd != "l" and not all(groups):
        return _("Diga quais cartas: {example}.", example=example)
    if cmd in ("d", "t") and len(groups[0]) > 1:
        return _("Uma carta só: {example}.", example=example)
    return None


async def _with_cards(game: Session, cmd: str, args: list[str]) -> None:
    groups = typed.groups_of(" ".join(args))
    target = None
    if cmd == "e":
        if not groups[0]:
            game.say(game._("Use: e JOGO CARTAS (ex.: e 2 4 5 ou e 1 9c)."))
            return
        target = _meld_number(game, groups[0][0], "e 2 4 5")
        if target is None:
            return
        groups[0] = groups[0][1:]
    slip = _shape_slip(game, cmd, groups)
    if slip is not None:
        game.say(slip)
        return
    shown = _card_positions(game, cmd, groups)
    if shown is None:
        return
    if cmd == "e" and meld_count(game) is None:
        # no "+N" buttons outside the play phase: a lay-down gets the engine's own answer
        # ("Primeiro compre do monte ou pegue o lixo.", RULES C11; "Não é a sua vez.")
        cmd, target = "b", None
    game.leaving = {pos for group in shown for pos in group}
    try:
        await _press_cards(game, cmd, [[game.view_index(i) for i in g] for g in shown], target)
    finally:
        game.leaving = set()


async def _press_cards(game: Session, cmd: str, groups: list[list[int]],
                       target: int | None) -> None:
    """Select the cards (view indexes, resolved from the numbers before any press: every
    press brings a new hand view) group by group, then press the move; a refused press
    leaves no half-made selection behind."""
    await game.press("z")
    for group in groups:
        for i in group:
            if not await game.press("t", i):
                await game.press("z")
                return
        # several melds: each is set aside ("Separar"), so a group that is no meld is
        # refused with its cards named before any question about a wild's place
        if cmd == "b" and len(groups) > 1 and not await game.press("g"):
            await game.press("z")
            return
    for places in wild.staged(game):  # each meld set aside whose wild is in question
        picked = wild.ask(game, places)
        if picked is None or not await game.press(*picked):
            await game.press("z")
            return
    code, arg = {"l": "p", "b": "m", "d": "d", "t": "3", "e": "e"}[cmd], (
        "" if target is None else str(target))
    places = wild.choices(game, cmd, target) if cmd in ("b", "e", "l") else []
    if len(places) > 1:  # the wild could stand in two places: the person says which
        picked = wild.ask(game, places)
        if picked is None:
            await game.press("z")
            return
        code, arg = picked
    if not await game.press(code, arg):
        await game.press("z")
