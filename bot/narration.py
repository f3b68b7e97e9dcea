"""What just happened, in words: the table's narration and a seat's own last move.

The table message of a group is edited at most every few seconds (adapters/delivery
coalesces the edits), so a person who reads one edit must learn every move made since
the one before (issue 14 part 2). The narration is kept with the game (``Game.last``),
so every worker renders the same words and a restart loses nothing. It holds the moves
of the turn that ended last and those of the turn in play: whatever edit a person sees,
it says what the previous player did in their whole turn and what the current player
has done so far ("Robô 2 comprou do monte, baixou 6♣ 7♣ 8♣ e descartou 9♥.").

An entry is ``(msgid, params)``. A move's msgid is a pt-BR verb phrase without its
subject ("descartou {card}"); ``params`` hold ``seat`` (who moved), ``t`` (the deal's
``turn_count`` when the move was made), ``at`` (when, Unix seconds) and the phrase's
values. Only public facts: a card drawn from the stock is never in them (it is named
only in the drawer's own hand, :func:`own_line`); a card taken from the open pile is
public. An entry without ``t`` is a whole sentence ("A partida começou.", or a move
stored by an older version as "{name} ..."): it is shown until the next move. Text is
made at render time in the chat's language; the second person ("Você descartou 3♣ e
trancou o lixo.") reads each phrase in the :data:`YOU` context, for languages whose
verbs change with the person.
"""

from __future__ import annotations

from typing import Any

from bot import play
from bot.i18n import N_, Translator
from bot.model import Game
from engine.cards import Card
from engine.melds import RUN

Entry = tuple[str, dict[str, Any]]
RECENT_S = 10.0
"""Moves this recent stay in the narration even from an older turn: a group's table is
edited at most every 3 s (adapters/delivery/coalesce.py), more under the per-minute cap
or a platform's retry-after, and robots move every ``ai_pace_s`` (1 s by default), so three robots
can play more than a turn between two edits."""
MAX_ENTRIES = 16
"""At most this many moves are kept (the stored game stays small)."""
YOU = "você"
"""gettext context of a phrase said of the reader ("hai scartato" in Italian)."""

DREW = N_("comprou do monte")
DREW_CARD = N_("comprou o {card}")
REDREW = N_("abriu o lixo com {card} e comprou outra")
REDREW_CARD = N_("abriu o lixo com {card} e comprou o {new}")
LAID_THREE = N_("baixou o {card}")
LAID_DREW = N_("baixou o {card} e comprou outra")
LAID_DREW_MORE = N_("baixou o {card} e comprou mais {n}")
LAID_DREW_CARD = N_("baixou o {card} e comprou o {new}")
LAID_DREW_CARDS = N_("baixou o {card} e comprou {cards}")
LAID_STUCK = N_("baixou o {card} e comprou outra por não ter como terminar a vez")
LAID_STUCK_MORE = N_("baixou o {card} e comprou mais {n} por não ter como terminar a vez")
LAID_STUCK_CARD = N_("baixou o {card} e comprou o {new} por não ter como terminar a vez")
LAID_STUCK_CARDS = N_("baixou o {card} e comprou {cards} por não ter como terminar a vez")
"""A tranca red 3 draws nothing (RULES A32) unless the player could not otherwise end
the turn (docs/rules-decisions.md D1): that draw says why, or it reads as a bug."""
NAMED_DRAWS = {LAID_DREW: (LAID_DREW_CARD, LAID_DREW_CARDS),
               LAID_DREW_MORE: (LAID_DREW_CARD, LAID_DREW_CARDS),
               LAID_STUCK: (LAID_STUCK_CARD, LAID_STUCK_CARDS),
               LAID_STUCK_MORE: (LAID_STUCK_CARD, LAID_STUCK_CARDS)}
"""A red 3's draws as the table tells them -> as the drawer's hand tells them (naming the
card, or the cards)."""
MELDED = N_("baixou {melds}")
EXTENDED = N_("juntou {extended}")
MELDED_EXTENDED = "baixou {melds} e juntou {extended}"
"""A lay-down with new melds and extensions: told as two phrases (:data:`MELDED`,
:data:`EXTENDED`), so a sentence has one list per phrase (:func:`sentence`)."""
TOOK_MORTO = N_("pegou o morto")
TOOK_PILE = N_("pegou o lixo ({count})")
PILE_ONTO = N_("pegou o lixo ({count}) juntando {card} ao jogo {meld}")
PILE_NEW = N_("pegou o lixo ({count}) baixando {cards}")
OLD_MSGIDS = {"pegou o lixo (cartas: {n})": TOOK_PILE,
              "pegou o lixo (cartas: {n}) juntando {card} ao jogo {meld}": PILE_ONTO,
              "pegou o lixo (cartas: {n}) baixando {cards}": PILE_NEW}
"""Phrases an older version stored -> the phrase said now."""
PHRASES: dict[str, str] = {
    "drew": DREW,
    "redrew": REDREW,
    "took_pile": TOOK_PILE,
    "discarded": N_("descartou {card}"),
    "laid_three": LAID_THREE,
    "took_morto": TOOK_MORTO,
    "pile_killed": N_("trancou o lixo"),
    "pile_blocked": N_("trancou o lixo para o próximo jogador"),
    "went_out": N_("bateu"),
}
"""Engine event kind -> the phrase of a move (engine ``Event``, docs/engine-api.md)."""
TABLE_SENTENCES: dict[str, str] = {
    "stock_from_morto": N_("O monte acabou: um morto virou monte."),
    "stock_from_pile": N_("O monte acabou: o lixo foi embaralhado no monte."),
}
"""Events of the table itself (seat -1), said as whole sentences."""
STOCK_OUT = N_("O monte acabou: ninguém bateu.")
"""A deal the stock ended (engine ``deal_over`` with reason ``stock``, RULES A26): said
by the table's narration and by the deal's result (:func:`bot.results.breakdown_text`),
in the chat, the terminal, the web table and the replay (issue 38)."""


def describe(ev: Any, turn: int, melds: list[Any], new_meld: bool,
             at: float = 0.0, stuck: bool = False) -> Entry | None:
    """The entry of engine event ``ev`` made in turn ``turn`` at ``at`` (Unix seconds;
    public facts only), or None for an event nobody needs to read. ``melds`` are the
    melds of the mover's side after the move, ``new_meld`` tells a justified pick-up that
    formed a meld (RULES A10, A38) from one that extended meld ``public["meld"]``.
    ``stuck``: a red 3's draws are those of D1 (tranca), not a replacement (A4)."""
    pub: dict[str, Any] = ev.public
    kw: dict[str, Any] = {"seat": ev.seat, "t": turn, "at": int(at)}
    if ev.kind in TABLE_SENTENCES:
        return TABLE_SENTENCES[ev.kind], kw
    if ev.kind == "deal_over":  # RULES A26: said when the stock, not a batida, ended it
        return (STOCK_OUT, kw) if pub.get("reason") == "stock" else None
    if ev.kind == "melded":
        return _melded(kw, pub, melds)
    msgid = PHRASES.get(ev.kind)
    if msgid is None:
        return None
    if isinstance(pub.get("card"), str):
        kw["card"] = str(Card.parse(pub["card"]))
    if ev.kind == "laid_three" and int(pub.get("replaced", 0)):  # RULES A4, D1: not named
        kw["n"] = int(pub["replaced"])
        if stuck:
            return (LAID_STUCK if kw["n"] == 1 else LAID_STUCK_MORE), kw
        return (LAID_DREW if kw["n"] == 1 else LAID_DREW_MORE), kw
    if ev.kind == "took_pile":
        kw["n"] = len(pub["cards"]) if "cards" in pub else int(pub.get("count", 0))
        if "meld" in pub:  # a justified pick-up names the meld it made or extended
            index = int(pub["meld"])
            if new_meld:  # its wild marked as on the table (issue 30)
                kw["cards"] = play.show_meld(melds[index])
                return PILE_NEW, kw
            kw["card"], kw["meld"] = str(Card.parse(pub["top"])), index + 1
            return PILE_ONTO, kw
    return msgid, kw


def _melded(kw: dict[str, Any], pub: dict[str, Any], side: list[Any]) -> Entry:
    """New melds and extensions kept apart (``melds`` = [[codes]], ``extend`` =
    [{meld, cards}]); joined into words by :func:`_phrase`. An extension's cards are told
    in the order they lie in the meld (``side``: the mover's melds after the move), so a
    run grown at its low end reads "juntou 4♣ 5♣ 6♣ ao jogo 3", not in the order played.
    A run's wild bears the mark the table shows, the rank it stands for (issue 30:
    "baixou 2♦(A) 2♦ 3♦", "juntou 2♣(4) ao jogo 1"; :func:`bot.play.show_meld`)."""
    built = pub.get("melds", [])
    melds = [[str(Card.parse(c)) for c in m] for m in built]
    new = side[len(side) - len(built):] if 0 < len(built) <= len(side) else []
    for k, meld in enumerate(new):  # the engine appends the new melds, in this order
        faces = play.show_meld(meld).split(" ")
        if [face.split("(")[0] for face in faces] == melds[k]:
            melds[k] = faces
    ext = [[int(e["meld"]) + 1, _in_layout(e["cards"], side, int(e["meld"]))]
           for e in pub.get("extend", [])]
    msgid = MELDED_EXTENDED if melds and ext else (MELDED if melds else EXTENDED)
    return msgid, {**kw, "melds": melds, "extend": ext}


def _in_layout(codes: list[str], side: list[Any], index: int) -> list[str]:
    """The texts of cards ``codes``, ordered as they lie in meld ``index`` of ``side``
    (as given when that meld is not there); the run's wild marked with the rank it
    stands for when it is one of them (every copy of its card came now: else which copy
    is the wild is not told, and no mark is given)."""
    texts = [str(Card.parse(c)) for c in codes]
    if not 0 <= index < len(side):
        return texts
    meld = side[index]
    laid = [str(c) for c in meld.cards]
    ordered = sorted(texts, key=lambda t: laid.index(t) if t in laid else len(laid))
    at = meld.wild_at if meld.kind == RUN else -1
    if at < 0 or laid.count(laid[at]) != texts.count(laid[at]):
        return ordered
    left = {t: texts.count(t) for t in texts}
    out = []
    for p, t in enumerate(laid):  # every card of the extension where it lies
        if left.get(t, 0) > 0:
            left[t] -= 1
            out.append(t + f"({play.rank_text(meld.wild_slot)})" if p == at else t)
    return out + [t for t, n in left.items() for _k in range(n)]


def recent(entries: list[Entry], turn: int, now: float) -> list[Entry]:
    """What the narration keeps after a move at ``now``: whole turns only (a turn is one
    seat's moves with one ``t``), those of turn ``turn`` (the deal's ``turn_count`` now)
    and of the turn before it, and any turn with a move in the last :data:`RECENT_S`
    seconds; at most :data:`MAX_ENTRIES` moves (the newest whole turns: a turn cut by the
    limit is dropped). A turn is never told without its start ("Robô 2 descartou 9♥."
    after its draw was dropped would read as a new turn). Sentences without a turn are
    dropped (they last until the next move)."""
    moves = [(m, p) for m, p in entries if isinstance(p.get("t"), int)]
    keep = {_turn_key(p) for _m, p in moves
            if p["t"] >= turn - 1 or p.get("at", 0) >= now - RECENT_S}
    kept = [(m, p) for m, p in moves if _turn_key(p) in keep]
    if len(kept) <= MAX_ENTRIES:
        return kept
    cut = len(kept) - MAX_ENTRIES
    key = _turn_key(kept[cut - 1][1])
    whole = next((i for i in range(cut, len(kept)) if _turn_key(kept[i][1]) != key), cut)
    return kept[whole:]


def _turn_key(params: dict[str, Any]) -> tuple[Any, Any]:
    """``(seat, t)``: the turn a move belongs to."""
    return params.get("seat"), params.get("t")


def and_join(items: list[str], _: Translator) -> str:
    """``a``, ``a e b``, ``a, b e c`` in the chat's language: the one rule of every list
    in the narration, the cards or melds of a phrase ("baixou 2♦ 3♦ 4♦ e 3♠ 4♠ 5♠") and
    the phrases of a turn ("comprou do monte, baixou ... e descartou 10♠"). Two "e" never
    run on: when the last item holds an "e" of its own, that "e" is the list's
    ("comprou o 10♥, baixou o 3♦ e comprou o 7♥": trials read "comprou o 10♥ e baixou o
    3♦ e comprou o 7♥", and "..., e baixou o 3♥ e comprou outra"); else when the item
    before it holds one, the last is set off by a comma too ("juntou 4♥ ao jogo 1 e 7♠
    ao jogo 2, e descartou 10♠")."""
    if len(items) < 2:
        return "".join(items)
    joined: str = _("{items} e {last}", items=", ".join(items[:-1]), last=items[-1])
    word = _("{items} e {last}", items="\x00", last="\x01").strip("\x00\x01")  # " e "
    if word.strip() and word in items[-1]:
        joined = ", ".join(items)
    elif word.strip() and word in items[-2]:
        joined = _("{items} e {last}", items=", ".join(items[:-1]) + ",", last=items[-1])
    return joined


def _values(params: dict[str, Any], _: Translator) -> dict[str, Any]:
    """The format values of an entry: ``seat``, ``t`` and ``at`` left out, the melds
    and extensions of :func:`_melded` put into words."""
    kw = {k: v for k, v in params.items() if k not in ("seat", "t", "at", "auto")}
    if "n" in kw and "count" not in kw:  # the pile's cards: "(2 cartas)"
        kw["count"] = _.n("{n} carta", "{n} cartas", int(kw["n"]))
    if isinstance(kw.get("melds"), list):
        kw["melds"] = and_join([" ".join(m) for m in kw["melds"]], _)
        kw["extended"] = and_join([_("{cards} ao jogo {n}", cards=" ".join(cards), n=n)
                                   for n, cards in kw.pop("extend", [])], _)
    return kw


def _phrase(msgid: str, params: dict[str, Any], _: Translator, you: bool) -> str:
    msgid = OLD_MSGIDS.get(msgid, msgid)
    kw = _values(params, _)
    return _.p(YOU, msgid, **kw) if you else _(msgid, **kw)


def _phrases(msgid: str, params: dict[str, Any], _: Translator, you: bool) -> list[str]:
    """The phrases of one entry: a lay-down with new melds and extensions is two
    ("baixou 2♦ 3♦ 4♦ e 3♠ 4♠ 5♠", "juntou 4♥ ao jogo 1 e 7♠ ao jogo 2")."""
    if msgid == MELDED_EXTENDED:
        return [_phrase(MELDED, {**params, "extend": []}, _, you),
                _phrase(EXTENDED, {**params, "melds": []}, _, you)]
    return [_phrase(msgid, params, _, you)]


def _told(group: list[Entry]) -> list[Entry]:
    """The moves of one turn that are said: the draw before a redraw (RULES A9) is left
    out, "abriu o lixo com A♠ e comprou outra" says it."""
    if all(m != REDREW for m, _p in group):
        return group
    return [(m, p) for m, p in group if m != DREW]


def _groups(entries: list[Entry]) -> list[tuple[int, list[Entry]]]:
    """Consecutive moves of one seat in one turn together; sentences alone (seat -1).
    A sentence made in the middle of a turn (the stock refilled from a morto for a red
    3's draw, RULES A26) is told after that turn's sentence, which it would otherwise cut
    in two ("Ana comprou do monte, baixou o 3♦ e comprou outra, e descartou 6♣. O monte
    acabou: um morto virou monte.")."""
    out: list[tuple[int, list[Entry]]] = []
    held: list[Entry] = []  # sentences waiting for the end of the turn they came in
    prev: tuple[int, Any] | None = None
    for msgid, params in entries:
        seat, turn = params.get("seat", -1), params.get("t")
        key = (seat, turn)
        if seat >= 0 and turn is not None and key == prev:
            out[-1][1].append((msgid, params))
            continue
        if seat < 0 and prev is not None:
            held.append((msgid, params))
            continue
        out += [(-1, [entry]) for entry in held]
        held = []
        out.append((seat if turn is not None else -1, [(msgid, params)]))
        prev = key if seat >= 0 and turn is not None else None
    return out + [(-1, [entry]) for entry in held]


def sentence(seat: int, phrases: list[str], you: bool, name: str, _: Translator) -> str:
    """``"Robô 2 comprou do monte, baixou 6♣ 7♣ 8♣ e descartou 9♥."``; ``you``: the
    second person (``"Você descartou 3♣ e trancou o lixo."``)."""
    did = and_join(phrases, _)
    if not you:
        return _("{name} {did}.", name=name, did=did)
    text = _("Você {did}.", did=did)  # Italian drops the pronoun: "Hai scartato 3♣."
    return text[:1].upper() + text[1:]


def last_text(game: Game, _: Translator, names: list[str], you: int | None = None) -> str:
    """The table's narration (module docstring): one sentence per seat and turn, in
    the chat's language; ``names`` are the seats' display names; the seat ``you`` (a
    one-person table, the terminal) is told in the second person."""
    out = []
    for seat, group in _groups(game.last):
        if seat < 0:
            msgid, params = group[0]
            kw = _values(params, _)
            if params.get("seat", -1) >= 0:
                kw["name"] = names[params["seat"]]  # a "{name} ..." of an older version
            out.append(_(msgid, **kw))
            continue
        out.append(_turn_sentence(seat, group, seat == you, names[seat], _))
    return " ".join(out)


_SAID: dict[tuple[Any, ...], tuple[str, list[dict[str, Any]], Any]] = {}
SAID_KEPT = 4096
"""Turn sentences :func:`_turn_sentence` keeps (emptied when full)."""


def _turn_sentence(seat: int, group: list[Entry], you: bool, name: str,
                   _: Translator) -> str:
    """The sentence of one seat's turn (``group``, its entries in order), kept by the
    identity of the entries' params (issue 36: every table view told the last turns
    again, and a turn's entries do not change once made; a game read from Redis has
    new ones, told anew). The params and the catalog are kept with the text, so a key's
    ids cannot be reused by other objects while it is kept."""
    params = [p for _m, p in group]
    key = (tuple(map(id, params)), tuple(m for m, _p in group), you, name, _.lang)
    hit = _SAID.get(key)
    if hit is not None and hit[2] is _._cat and all(
            a is b for a, b in zip(hit[1], params, strict=True)):
        return hit[0]
    phrases = [x for m, p in _told(group) for x in _phrases(m, p, _, you)]
    text = sentence(seat, phrases, you, name, _)
    if len(_SAID) >= SAID_KEPT:
        _SAID.clear()
    _SAID[key] = (text, params, _._cat)
    return text


def own_line(game: Game, seat: int, _: Translator, drawn: Card | None, turn: int,
             more: list[Card] | None = None) -> str:
    """``seat``'s own latest turn in the narration, said to them in their hand, naming
    the cards they drew this turn (``turn``; the engine's ``view_for`` gives them to
    their drawer only): ``drawn`` from the stock (``"Você comprou o 7♦."``; after the
    first player's redraw, RULES A9, the second card: ``"Você abriu o lixo com A♠ e
    comprou o 5♥."``) and ``more``, the red-3 replacements in the order drawn
    (RULES A4, D1: ``"Você baixou o 3♦ e comprou o 10♥."``); ``"Você descartou 3♣ e
    trancou o lixo."``; ``""`` when the narration holds no move of theirs."""
    mine = [(m, p) for m, p in game.last if p.get("seat") == seat and "t" in p]
    if not mine:
        return ""
    last_turn = mine[-1][1]["t"]
    ours = _told([(m, p) for m, p in mine if p["t"] == last_turn])
    now = last_turn == turn
    extra = list(more or []) if now else []
    phrases, auto = [], []
    for msgid, params in ours:
        if msgid == DREW and now and drawn is not None:
            msgid, params = DREW_CARD, {"card": str(drawn)}
        elif msgid == REDREW and now and drawn is not None:
            msgid, params = REDREW_CARD, {**params, "new": str(drawn)}
        elif msgid in NAMED_DRAWS and len(extra) >= int(params["n"]):
            got, extra = extra[:int(params["n"])], extra[int(params["n"]):]
            one, more_cards = NAMED_DRAWS[msgid]
            msgid, params = (one, {"card": params["card"], "new": str(got[0])}) \
                if len(got) == 1 else (more_cards, {
                    "card": params["card"], "cards": and_join([str(c) for c in got], _)})
        if params.get("auto"):
            auto += _phrases(msgid, params, _, False)
        else:
            phrases += _phrases(msgid, params, _, True)
    said = sentence(seat, phrases, True, "", _) if phrases else ""
    if auto:  # a timeout played for them (bot.timers): the hand says so (issue 30 O8)
        said = (said + " " + _(TIMED_OUT, did=and_join(auto, _))).strip()
    return said


TIMED_OUT = N_("Seu tempo acabou: o robô {did} por você.")
"""The moves a timeout made for a person, in their hand (``{did}``: the phrases as the
table says them, "comprou do monte e descartou A♥"): a trial read "Você ... descartou
9♣." though she had not discarded, and no word that her time ran out."""


def took_morto_in(game: Game, seat: int, turn: int) -> bool:
    """True when ``seat`` took its morto in turn ``turn`` (a direct going-out, RULES C11):
    the morto replaced the hand, so no card of it was drawn."""
    for m, p in game.last:  # a loop: a third of any()'s time over a generator (issue 36)
        if m == TOOK_MORTO and p.get("seat") == seat and p.get("t") == turn:
            return True
    return False
