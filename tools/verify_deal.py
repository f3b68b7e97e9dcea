#!/usr/bin/env python3
"""Check the deals of a game record, with nothing but Python (3.8+) itself.

    python3 verify_deal.py jogo.json [--commitment HEX] [--lang pt|en|it] [--quiet]

For every deal of the record (``/exportar`` gives it; docs/record-format.md), this
script recomputes the commitment (SHA-256 of the revealed seed), the shuffle (HMAC-SHA256
in counter mode, Fisher-Yates with rejection sampling: docs/record-format.md
"Verifiable deals") and so every hand, morto and the stock order, and compares them with
the record. It says OK, or exactly what does not match. ``--commitment`` checks that one
of the deals has the commitment you saw on the table (the whole of it, or its start: at
least 16 hex digits that only one deal's commitment begins with). It checks the deals
only: the actions and scores are checked by ``python -m engine replay``. Exit status: 0
every deal verified, 1 something does not match (or a deal has no seed), 2 the file is
no record.

It is a separate implementation from the bot's (engine/fairdeal.py, engine/deal_check.py),
written from the documented construction only, so that nobody has to trust the bot's
code to check the bot: copy this one file anywhere and run it.
"""

import argparse
import hashlib
import hmac
import json
import os
import sys

SCHEME = "hmac-sha256-ctr/1"
DOMAIN = b"buraco-deal/1"
HAND_SIZE = 11
MIN_PREFIX = 16  # hex digits of a commitment's start that --commitment accepts
PRESETS = {"buraco", "buraco_morto", "bossa_nova", "justificado", "tranca", "altaneira"}
ALIASES = {"biriba": "buraco_morto", "stbl": "justificado", "biriba_tranca": "altaneira"}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "cdhs"
SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}

TEXTS = {
    "pt": {
        "deal": "Mão {n}", "ok": "OK", "bad": "NÃO CONFERE", "noseed": "SEM SEMENTE",
        "noseed_why": "esta mão não tem semente (distribuída de um baralho dado, ou antes "
                      "das mãos verificáveis): não há o que conferir",
        "commit_line": "compromisso {c} = SHA-256 da semente",
        "seed_line": "semente {s}",
        "commit_bad": "o compromisso do registro ({given}) não é o SHA-256 da semente "
                      "({computed})",
        "card_bad": "posição {pos} do baralho ({where}): o registro tem {given}, a semente "
                    "dá {computed}",
        "reshuffle_bad": "a ordem do lixo ao voltar ao monte ('reshuffle') não é a da "
                         "semente",
        "hand": "mão de {name}, carta {k}", "morto": "morto {side}, carta {k}",
        "stock": "monte, carta {k} a partir do topo",
        "hand_line": "{name}: {cards}", "morto_line": "morto {side}: {cards}",
        "stock_line": "monte (do topo): {cards}",
        "seen_ok": "O compromisso {c} é o da mão {n}.",
        "seen_bad": "Nenhuma mão deste registro tem o compromisso {c}.",
        "all_ok": "Resultado: OK, todas as {n} mãos conferem com as sementes.",
        "one_ok": "Resultado: OK, a mão confere com a semente.",
        "not_ok": "Resultado: NÃO CONFERE ({n} de {total} mãos).",
        "unreadable": "Não é um registro de partida: {why}",
        "not_object": "o arquivo é JSON, mas não o objeto de um registro (é {kind}); use o "
                      "arquivo .json que exportar manda",
        "no_format": "falta o campo \"format\": \"buraco-record/…\"; use o arquivo .json "
                     "que exportar manda",
        "bad_format": "o formato {given} não é o de um registro (buraco-record/…)",
        "scheme_bad": "o campo 'shuffle' é {given}, não {scheme}: a semente está aí, mas "
                      "o registro diz outra receita de embaralhar, que este programa não "
                      "confere",
        "seen_short": "O compromisso {c} é curto demais: dê ao menos 16 letras e algarismos "
                      "do começo dele (a mesa mostra 16).",
        "seen_many": "O começo {c} é o de mais de uma mão ({ns}): dê mais letras do "
                     "compromisso.",
    },
    "en": {
        "deal": "Deal {n}", "ok": "OK", "bad": "DOES NOT MATCH", "noseed": "NO SEED",
        "noseed_why": "this deal has no seed (dealt from a given deck, or before verifiable "
                      "deals): nothing to check",
        "commit_line": "commitment {c} = SHA-256 of the seed",
        "seed_line": "seed {s}",
        "commit_bad": "the record's commitment ({given}) is not the seed's SHA-256 "
                      "({computed})",
        "card_bad": "deck position {pos} ({where}): the record has {given}, the seed gives "
                    "{computed}",
        "reshuffle_bad": "the order the pile goes back to the stock in ('reshuffle') is not "
                         "the seed's",
        "hand": "{name}'s hand, card {k}", "morto": "morto {side}, card {k}",
        "stock": "stock, card {k} from the top",
        "hand_line": "{name}: {cards}", "morto_line": "morto {side}: {cards}",
        "stock_line": "stock (from the top): {cards}",
        "seen_ok": "The commitment {c} is deal {n}'s.",
        "seen_bad": "No deal of this record has the commitment {c}.",
        "all_ok": "Result: OK, all {n} deals match their seeds.",
        "one_ok": "Result: OK, the deal matches its seed.",
        "not_ok": "Result: DOES NOT MATCH ({n} of {total} deals).",
        "unreadable": "Not a game record: {why}",
        "not_object": "the file is JSON but not a record's object (it is {kind}); use the "
                      ".json file that export sends",
        "no_format": "the field \"format\": \"buraco-record/…\" is missing; use the .json "
                     "file that export sends",
        "bad_format": "the format {given} is not a record's (buraco-record/…)",
        "scheme_bad": "the 'shuffle' field is {given}, not {scheme}: the seed is there, but "
                      "the record names another shuffling recipe, which this script does "
                      "not check",
        "seen_short": "The commitment {c} is too short: give at least its first 16 letters "
                      "and digits (the table shows 16).",
        "seen_many": "The start {c} is that of more than one deal ({ns}): give more of the "
                     "commitment.",
    },
    "it": {
        "deal": "Mano {n}", "ok": "OK", "bad": "NON CORRISPONDE", "noseed": "SENZA SEME",
        "noseed_why": "questa mano non ha seme (distribuita da un mazzo dato, o prima "
                      "delle mani verificabili): niente da controllare",
        "commit_line": "impegno {c} = SHA-256 del seme",
        "seed_line": "seme {s}",
        "commit_bad": "l'impegno del registro ({given}) non è lo SHA-256 del seme "
                      "({computed})",
        "card_bad": "posizione {pos} del mazzo ({where}): il registro ha {given}, il "
                    "seme dà {computed}",
        "reshuffle_bad": "l'ordine in cui gli scarti tornano al tallone ('reshuffle') non è "
                         "quello del seme",
        "hand": "mano di {name}, carta {k}", "morto": "pozzetto {side}, carta {k}",
        "stock": "tallone, carta {k} dall'alto",
        "hand_line": "{name}: {cards}", "morto_line": "pozzetto {side}: {cards}",
        "stock_line": "tallone (dall'alto): {cards}",
        "seen_ok": "L'impegno {c} è quello della mano {n}.",
        "seen_bad": "Nessuna mano di questo registro ha l'impegno {c}.",
        "all_ok": "Risultato: OK, tutte le {n} mani corrispondono ai semi.",
        "one_ok": "Risultato: OK, la mano corrisponde al seme.",
        "not_ok": "Risultato: NON CORRISPONDE ({n} mani su {total}).",
        "unreadable": "Non è un registro di partita: {why}",
        "not_object": "il file è JSON ma non l'oggetto di un registro (è {kind}); usa il "
                      "file .json che esporta manda",
        "no_format": "manca il campo \"format\": \"buraco-record/…\"; usa il file .json "
                     "che esporta manda",
        "bad_format": "il formato {given} non è quello di un registro (buraco-record/…)",
        "scheme_bad": "il campo 'shuffle' è {given}, non {scheme}: il seme c'è, ma il "
                      "registro indica un'altra ricetta di mescolamento, che questo "
                      "programma non controlla",
        "seen_short": "L'impegno {c} è troppo corto: dai almeno le sue prime 16 lettere e "
                      "cifre (il tavolo ne mostra 16).",
        "seen_many": "L'inizio {c} è quello di più di una mano ({ns}): dai più lettere "
                     "dell'impegno.",
    },
}


class Unreadable(Exception):
    """The file is not a record this script can read."""


# The construction (docs/record-format.md "Verifiable deals") ------------------------
def draws(seed, label):
    """4-byte big-endian unsigned integers of HMAC-SHA256(seed, DOMAIN 0 label 0 i)."""
    prefix = DOMAIN + b"\x00" + label + b"\x00"
    i = 0
    while True:
        block = hmac.new(seed, prefix + i.to_bytes(8, "big"), hashlib.sha256).digest()
        for k in range(0, 32, 4):
            yield int.from_bytes(block[k:k + 4], "big")
        i += 1


def below(stream, n):
    """Uniform in 0..n-1: rejection sampling, no modulo bias."""
    limit = 2 ** 32 - (2 ** 32) % n
    while True:
        u = next(stream)
        if u < limit:
            return u % n


def fisher_yates(items, seed, label):
    """A shuffled copy of items: for i = len-1 .. 1, swap a[i] and a[below(i+1)]."""
    out = list(items)
    stream = draws(seed, label)
    for i in range(len(out) - 1, 0, -1):
        j = below(stream, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def full_deck(jokers):
    """Two decks in face order (Ac..Kc Ad..Kd Ah..Kh As..Ks, twice), then JK JK."""
    one = [rank + suit for suit in SUITS for rank in RANKS]
    return one + one + (["JK", "JK"] if jokers else [])


# Reading the record --------------------------------------------------------------
def card_code(text):
    """The record's card text in the engine's form: '10h', 'Ac', 'JK'."""
    if not isinstance(text, str) or not text.strip():
        raise Unreadable(f"carta {text!r}")
    t = text.strip()
    if t.upper() in ("JK", "JOKER", "🃏"):
        return "JK"
    for letter, symbol in SYMBOLS.items():
        t = t.replace(symbol, letter)
    rank, suit = t[:-1].upper(), t[-1].lower()
    rank = {"T": "10", "1": "A"}.get(rank, rank)
    if rank not in RANKS or suit not in SUITS:
        raise Unreadable(f"carta {text!r}")
    return rank + suit


def shown(code):
    return "🃏" if code == "JK" else code[:-1] + SYMBOLS[code[-1]]


def flag(value):
    return value is True or str(value).strip().lower() in ("true", "1", "yes", "sim", "on")


KINDS = {list: "[…]", str: "\"…\"", int: "0", float: "0.0", bool: "true", type(None): "null"}


def table_of(record, t):
    """(morto, jokers, reuse_pile, players) of the record's table."""
    if not isinstance(record, dict):
        raise Unreadable(t["not_object"].format(kind=KINDS.get(type(record), "?")))
    if "format" not in record:
        raise Unreadable(t["no_format"])
    if not str(record["format"]).startswith("buraco-record/"):
        raise Unreadable(t["bad_format"].format(given=json.dumps(record["format"])))
    variant = str(record.get("variant", "")).strip().lower()
    variant = ALIASES.get(variant, variant)
    if variant not in PRESETS:
        raise Unreadable("'variant' {!r}".format(record.get("variant")))
    options = record.get("options") or {}
    players = record.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 6:
        raise Unreadable("'players'")
    reuse = flag(options.get("reuse_pile_once", variant == "altaneira"))
    return variant != "buraco", flag(options.get("jokers", False)), reuse, players


def places(n_players, morto, first):
    """Where each deck position goes: ('hand', seat, k), ('morto', side, k), ('stock', k)."""
    sides = 2 if n_players in (4, 6) else n_players
    out = [("hand", (first + p % n_players) % n_players, p // n_players)
           for p in range(HAND_SIZE * n_players)]
    if morto:
        out += [("morto", s, k) for s in range(sides) for k in range(HAND_SIZE)]
    return out


def check_deal(number, deal, table, t):
    """(status, lines) of one deal: status 'ok', 'bad' or 'noseed'."""
    morto, jokers, reuse, players = table
    if not isinstance(deal, dict) or not isinstance(deal.get("deck"), list):
        raise Unreadable(f"mão {number}: 'deck'")
    deck = [card_code(c) for c in deal["deck"]]
    first = deal.get("first", 0)
    if not isinstance(first, int) or not 0 <= first < len(players):
        raise Unreadable(f"mão {number}: 'first'")
    seed_hex, given = deal.get("seed"), deal.get("commitment")
    if seed_hex is None or given is None:
        return "noseed", ["  - " + t["noseed_why"]]
    if deal.get("shuffle") != SCHEME:
        return "bad", ["  - " + t["scheme_bad"].format(
            given=json.dumps(deal.get("shuffle")), scheme=SCHEME)]
    try:
        seed = bytes.fromhex(seed_hex)
        if len(seed) != 32:
            raise ValueError
    except (TypeError, ValueError):
        raise Unreadable(f"mão {number}: 'seed'") from None
    problems = []
    computed = hashlib.sha256(seed).hexdigest()
    if computed != str(given).lower():
        problems.append(t["commit_bad"].format(given=given, computed=computed))
    dealt = fisher_yates(full_deck(jokers), seed, b"deck")
    if len(deck) != len(dealt):
        raise Unreadable(f"mão {number}: o baralho tem {len(deck)} cartas, não {len(dealt)}")
    where = places(len(players), morto, first)
    for pos, want in enumerate(dealt):  # as long as deck (checked above); no zip(strict=),
        got = deck[pos]  # which Python 3.8 and 3.9 lack
        if got != want:
            problems.append(t["card_bad"].format(
                pos=pos + 1, where=describe(where, pos, players, t), given=shown(got),
                computed=shown(want)))
    reshuffle = fisher_yates(range(len(dealt)), seed, b"reshuffle")
    if (reuse or "reshuffle" in deal) and deal.get("reshuffle") != reshuffle:
        problems.append(t["reshuffle_bad"])
    lines = ["  " + t["commit_line"].format(c=computed), "  " + t["seed_line"].format(s=seed_hex)]
    lines += ["  " + line for line in deal_lines(dealt, where, players, t)]
    lines += ["  - " + p for p in problems]
    return ("bad" if problems else "ok"), lines


def describe(where, pos, players, t):
    if pos >= len(where):
        return t["stock"].format(k=pos - len(where) + 1)
    kind, who, k = where[pos]
    if kind == "hand":
        return t["hand"].format(name=players[who], k=k + 1)
    return t["morto"].format(side=who + 1, k=k + 1)


def deal_lines(dealt, where, players, t):
    hands = [[] for _ in players]
    mortos = {}
    for pos, (kind, who, _k) in enumerate(where):
        (hands[who] if kind == "hand" else mortos.setdefault(who, [])).append(dealt[pos])
    out = [t["hand_line"].format(name=players[s], cards=" ".join(map(shown, h)))
           for s, h in enumerate(hands)]
    out += [t["morto_line"].format(side=s + 1, cards=" ".join(map(shown, m)))
            for s, m in sorted(mortos.items())]
    out.append(t["stock_line"].format(cards=" ".join(map(shown, dealt[len(where):]))))
    return out


def verify(record, t, seen=None, quiet=False):
    """(exit status, lines) for a parsed record."""
    table = table_of(record, t)
    deals = record.get("deals", [record])
    if not isinstance(deals, list) or not deals:
        raise Unreadable("'deals'")
    out, failed, commitments = [], 0, []
    for n, deal in enumerate(deals, start=1):
        status, lines = check_deal(n, deal, table, t)
        failed += status != "ok"
        commitments.append(str(deal.get("commitment", "")).lower())
        out.append("{}: {}".format(t["deal"].format(n=n), t[status]))
        out += [line for line in lines if not quiet or line.startswith("  - ")]
    code = 1 if failed else 0
    if seen is not None:
        line, found = seen_line(seen, commitments, t)
        out.append(line)
        code = code if found else 1
    out.append(t["not_ok"].format(n=failed, total=len(deals)) if failed
               else t["one_ok"] if len(deals) == 1 else t["all_ok"].format(n=len(deals)))
    return code, out


def seen_line(seen, commitments, t):
    """(line, found) for ``--commitment``: the whole commitment or its start, at least
    ``MIN_PREFIX`` hex digits (the table shows 16, then "…"), naming one deal only."""
    seen = seen.strip().lower().rstrip("….").strip()
    if len(seen) < MIN_PREFIX and all(c in "0123456789abcdef" for c in seen):
        return t["seen_short"].format(c=seen), False
    deals = [n for n, full in enumerate(commitments, start=1) if full.startswith(seen)]
    if len(deals) > 1 and seen not in commitments:
        return t["seen_many"].format(c=seen, ns=", ".join(map(str, deals))), False
    if not deals:
        return t["seen_bad"].format(c=seen), False
    return t["seen_ok"].format(c=commitments[deals[0] - 1], n=deals[0]), True


def language(given):
    for text in (given, os.environ.get("LANGUAGE"), os.environ.get("LC_ALL"),
                 os.environ.get("LANG")):
        code = (text or "").strip().lower()[:2]
        if code in TEXTS:
            return code
    return "pt"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record", help="the record (JSON) from /exportar")
    parser.add_argument("--commitment", help="a commitment you saw on the table (or its "
                        "first 16 or more hex digits)")
    parser.add_argument("--lang", help="pt, en or it (default: LANG, else pt)")
    parser.add_argument("--quiet", action="store_true", help="no hands, only the verdicts")
    args = parser.parse_args(argv)
    t = TEXTS[language(args.lang)]
    try:
        with open(args.record, encoding="utf-8") as fh:
            record = json.load(fh)
        code, lines = verify(record, t, args.commitment, args.quiet)
    except (OSError, ValueError, Unreadable) as err:
        print(t["unreadable"].format(why=err), file=sys.stderr)
        return 2
    print("\n".join(lines))
    return code


if __name__ == "__main__":
    sys.exit(main())
