"""A tournament's use cases on its loaded record (issue 29, docs/season.md "Torneios"):
open, sign up, leave, start, call a match, a side showing up, a result, a walkover, the
next round and the champion. Pure: each raises :class:`bot.outcome.Refusal` (nothing
changed) or changes the record and returns what the group is told (:data:`Note`)."""

from __future__ import annotations

from bot import lobby
from bot.effects import ChatRef, PlayerRef, number
from bot.i18n import N_
from bot.outcome import Refusal
from bot.season.tournament import pairing
from bot.season.tournament.model import WO_DEFAULT_S, Match, Side, Tournament
from bot.season.tournament.standings import standings

DEFAULT_PRESET = "tranca"
MIN_SIDES = {False: 3, True: 2}
"""Fewest sides to start: a round robin of two is one match, so 3; a knockout 2."""
MAX_PEOPLE = 32
WO_MINUTES = (1, 60)
ROUND_ROBIN_WORDS = {"todos", "pontos", "corridos", "liga", "roundrobin", "league", "girone"}
KNOCKOUT_WORDS = {"mata", "mata-mata", "matamata", "chave", "knockout", "eliminatoria",
                  "eliminatória", "eliminazione"}
PAIRS_WORDS = {"duplas", "dupla", "pares", "pairs", "coppie", "coppia"}
SINGLES_WORDS = {"individual", "singles", "solo", "singoli", "individuale"}
NOT_RUNNING = N_("Não há torneio em andamento neste grupo.")
OLD_BUTTON = N_("Esse botão é antigo: use a mensagem mais recente do torneio.")
Note = tuple[str, int]
"""What happened, for the texts: ``("round", r)`` round r ended; ``("call", i)`` match i
is called; ``("champion", side)``; ``("wo", i)`` match i went by walkover; ``("again",
i)`` match i is called again (its table closed without a result)."""


def parse(args: str) -> tuple[bool, bool, str, str, int]:
    """``/torneio [todos|mata] [duplas|individual] [variante] [alvo=N] [wo=M] [k=v]`` ->
    (knockout, pairs, preset, table options text, walkover seconds). The table options
    are checked as ``/novojogo`` checks them; pairs need a variant of 4 players, singles
    one of 2. Raises :class:`Refusal` naming what is wrong."""
    knockout, pairs, preset = False, False, DEFAULT_PRESET
    options: list[str] = []
    wo_s = WO_DEFAULT_S
    for token in args.split():
        word = token.lower()
        if word in ROUND_ROBIN_WORDS or word in KNOCKOUT_WORDS:
            knockout = word in KNOCKOUT_WORDS
        elif word in PAIRS_WORDS or word in SINGLES_WORDS:
            pairs = word in PAIRS_WORDS
        elif word.startswith("wo="):
            minutes = number(word[3:])
            if minutes is None or not WO_MINUTES[0] <= minutes <= WO_MINUTES[1]:
                raise Refusal(N_("W.O.: use wo=1 a wo=60 (minutos)."))
            wo_s = minutes * 60
        elif "=" in word:
            key, value = token.split("=", 1)
            options.append(f"{'target' if key.lower() == 'alvo' else key}={value}")
        else:
            preset = token
    key, _opts, _timer, _shuffle = lobby.parse_args(" ".join([preset, *options]), 90)
    allowed = lobby.rules_of(key, _opts).players_allowed
    need = 4 if pairs else 2
    if need not in allowed:
        raise Refusal(N_("Essa variante não se joga com {n} jogadores por mesa."), n=need)
    return knockout, pairs, key, " ".join(options), wo_s


def open_tournament(tid: str, chat: ChatRef, user: PlayerRef, args: str,
                    lang: str) -> Tournament:
    """A new tournament in sign-up, its creator signed up first (raises
    :class:`Refusal` for bad ``args``, :func:`parse`)."""
    knockout, pairs, preset, options, wo_s = parse(args)
    return Tournament(id=tid, chat=chat, creator=user, lang=lang, knockout=knockout,
                      pairs=pairs, preset=preset, args=options, wo_s=wo_s, people=[user])


def _signup(t: Tournament) -> None:
    if t.status != "signup":
        raise Refusal(N_("As inscrições deste torneio estão fechadas."))


def sign_up(t: Tournament, user: PlayerRef) -> None:
    """Sign ``user`` up (in duplas, two people in a row make a pair)."""
    _signup(t)
    if any(p.key == user.key for p in t.people):
        raise Refusal(N_("Você já está inscrito."))
    if len(t.people) >= MAX_PEOPLE:
        raise Refusal(N_("O torneio está cheio."))
    t.people.append(user)


def leave(t: Tournament, user: PlayerRef) -> None:
    """Take ``user`` off the sign-up list."""
    _signup(t)
    if not any(p.key == user.key for p in t.people):
        raise Refusal(N_("Você não está inscrito."))
    t.people = [p for p in t.people if p.key != user.key]


def start(t: Tournament, user: PlayerRef, now: float) -> list[Note]:
    """The creator closes the sign-up: sides form (duplas: by sign-up order, 1st with
    2nd, 3rd with 4th...), the rounds are paired and the first match is called."""
    _signup(t)
    if user.key != t.creator.key:
        raise Refusal(N_("Só quem abriu o torneio pode começar."))
    size = 2 if t.pairs else 1
    if len(t.people) % size:
        raise Refusal(N_("Em duplas, o número de inscritos precisa ser par."))
    n = len(t.people) // size
    if n < MIN_SIDES[t.knockout]:
        raise Refusal(N_("São precisos ao menos {n} lados para começar."),
                      n=MIN_SIDES[t.knockout])
    t.sides = [Side(people=t.people[i:i + size]) for i in range(0, len(t.people), size)]
    if t.knockout:
        t.matches = [Match(round=1, a=a, b=b) for a, b in pairing.knockout_first_round(n)]
    else:
        t.matches = [Match(round=r, a=a, b=b)
                     for r, pairs in enumerate(pairing.round_robin(n), start=1)
                     for a, b in pairs if b is not None]
    t.status = "running"
    return advance(t, now)


def advance(t: Tournament, now: float) -> list[Note]:
    """After a match ends (or at the start): close the round of the match that just
    ended (at the start: the last round paired) when all its matches are done (a
    knockout pairs the next one), then call the next match or crown the champion.

    A round robin pairs every round at the start, so the round closing is the ended
    match's, not the last one: each round is announced once, when its last match ends
    (a result is counted once, :func:`result`, so a redone follow-up announces
    nothing)."""
    notes: list[Note] = []
    ending = t.matches[t.current].round if t.current is not None else t.rounds()
    t.current, t.present, t.due = None, [], None
    if ending and all(m.done for m in t.matches if m.round == ending):
        notes.append(("round", ending))
        if t.knockout and ending == t.rounds():
            winners = [_through(m) for m in t.matches if m.round == ending]
            if len(winners) > 1:
                t.matches += [Match(round=ending + 1, a=a, b=b)
                              for a, b in pairing.next_round(winners)]
    pending = [i for i, m in enumerate(t.matches) if not m.done]
    if not pending:
        t.status = "over"
        t.champion = (_through(t.matches[-1]) if t.knockout
                      else standings(len(t.sides), t.matches)[0].side)
        return [*notes, ("champion", t.champion)]
    return [*notes, *call(t, pending[0], now)]


def _through(m: Match) -> int:
    """The side a knockout match sends on (a bye: ``a``)."""
    return m.a if m.winner is None else m.winner


def call(t: Tournament, index: int, now: float) -> list[Note]:
    """Call match ``index``: each side has :attr:`Tournament.wo_s` to show (from when
    the call is shown: :attr:`Tournament.posted`)."""
    t.current, t.present, t.due, t.posted = index, [], now + t.wo_s, False
    t.matches[index].game = None
    return [("call", index)]


def current(t: Tournament, index: int | None = None) -> Match:
    """The match being called or played (``index``: the one a button named; an older
    one is refused as an old button)."""
    if t.status != "running" or t.current is None:
        raise Refusal(NOT_RUNNING if t.status != "running" else OLD_BUTTON)
    if index is not None and index != t.current:
        raise Refusal(OLD_BUTTON)
    return t.matches[t.current]


def players(t: Tournament, m: Match) -> list[PlayerRef]:
    """The people of match ``m`` in seat order: side a's first, side b's first, then
    their partners (partners sit across, RULES §1)."""
    a, b = t.sides[m.a].people, t.sides[m.b if m.b is not None else m.a].people
    return [p for pair in zip(a, b, strict=True) for p in pair]


def show_up(t: Tournament, user: PlayerRef, index: int, gid: str) -> bool:
    """``user`` presses "Estou aqui" for match ``index``; True when everyone is now
    present, the match then gets game id ``gid`` (its table opens)."""
    m = current(t, index)
    if m.game is not None:
        raise Refusal(N_("Esta partida já começou."))
    if user.key not in {p.key for p in players(t, m)}:
        raise Refusal(N_("Você não joga esta partida."))
    if user.key in t.present:
        raise Refusal(N_("Sua presença já está confirmada."))
    t.present.append(user.key)
    if len(t.present) < len(players(t, m)):
        return False
    m.game = gid
    return True


def absent_sides(t: Tournament, m: Match) -> list[int]:
    """The sides of ``m`` with someone not present."""
    sides = [m.a] + ([m.b] if m.b is not None else [])
    return [s for s in sides if any(p.key not in t.present for p in t.sides[s].people)]


def walkover(t: Tournament, now: float) -> list[Note]:
    """The call's time ran out with a side absent: the present side wins by W.O.
    (0 x 0: the saldo only counts matches played); both absent: a double W.O., both
    lose (a knockout sends the better seed on). Nothing when everyone showed."""
    m = current(t)
    absent = absent_sides(t, m)
    if m.game is not None or not absent or m.b is None:
        return []
    m.absent, m.score = absent, (0, 0)
    present = [s for s in (m.a, m.b) if s not in absent]
    m.winner = present[0] if present else (min(m.a, m.b) if t.knockout else -1)
    return [("wo", t.current or 0), *advance(t, now)]


def result(t: Tournament, gid: str, totals: list[int], winner: int | None,
           now: float) -> list[Note] | None:
    """Count the end of game ``gid``: ``totals`` each team's match points (team 0 is
    side a), ``winner`` the winning team (None: the table closed without a result; the
    match is called again). None when ``gid`` is not this tournament's current game or
    was counted before (a follow-up redone): nothing changes."""
    if (t.status != "running" or t.current is None or gid in t.counted
            or t.matches[t.current].game != gid):
        return None
    t.counted.append(gid)
    m = t.matches[t.current]
    if winner is None or m.b is None:
        return [("again", t.current), *call(t, t.current, now)]
    m.score = (totals[0], totals[1])
    m.winner = m.a if winner == 0 else m.b
    return advance(t, now)


def cancel(t: Tournament, user: PlayerRef, is_admin: bool) -> None:
    """End the tournament early (its creator or a group admin)."""
    if not t.live:
        raise Refusal(NOT_RUNNING)
    if user.key != t.creator.key and not is_admin:
        raise Refusal(N_("Só quem abriu o torneio ou um admin do grupo pode cancelar."))
    t.status, t.current, t.due = "cancelled", None, None


def opened(existing: Tournament | None) -> None:
    """Refuse a new tournament while one is live in the group."""
    if existing is not None and existing.live:
        raise Refusal(N_("Já há um torneio neste grupo: veja /torneio tabela."))

