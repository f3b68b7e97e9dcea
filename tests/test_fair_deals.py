"""Deals anyone can verify (issue 35): the seed, its commitment, the documented shuffle
(engine/fairdeal.py, docs/record-format.md "Verifiable deals"), the record's seeded
deals (``buraco-record/3``) and the two verifiers: the engine's (``engine.deal_check``,
behind ``/verificar``) and the standalone stdlib-only ``tools/verify_deal.py``."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from engine.cards import full_deck
from engine.deal_check import Mismatch, verify_record
from engine.fairdeal import (
    _below,
    commitment,
    deck_from_seed,
    new_seed,
    reshuffle_from_seed,
    shuffled,
)
from engine.match import RECORD_FORMAT, SEEDED_FORMAT, Match
from engine.record import MalformedRecord, replay
from engine.rules import PRESETS, make_rules
from engine.simulate import random_action

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tools" / "verify_deal.py"
ZERO = "00" * 32
ZERO_COMMITMENT = "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
"""SHA-256 of 32 zero bytes (a published value: anyone can check it elsewhere)."""


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_deal", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


verify_deal = _script()
PT = verify_deal.TEXTS["pt"]


def played(preset: str, players: int, deals: int = 1, seed: int = 35,
           options: dict[str, Any] | None = None) -> Match:
    """A match of ``deals`` seeded deals played to their end by random legal moves."""
    rng = random.Random(seed)
    match = Match.new(make_rules(preset, options or {}), [f"P{k}" for k in range(players)])
    for _ in range(deals):
        if match.over:
            break
        state = match.start_deal()
        while not state.over:
            match.act(random_action(state, rng))
    return match


# The construction -----------------------------------------------------------------
def test_commitment_is_sha256_of_the_seed_bytes() -> None:
    assert commitment(ZERO) == ZERO_COMMITMENT
    seed = new_seed()
    assert len(seed) == 64 and commitment(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def test_the_documented_test_vector() -> None:
    """docs/record-format.md quotes these: the seed of 32 zero bytes deals this deck."""
    deck = deck_from_seed(ZERO)
    assert [c.code for c in deck[:8]] == ["7h", "5h", "2d", "Qs", "8h", "10d", "5d", "Qd"]
    assert reshuffle_from_seed(ZERO, 104)[:6] == [97, 77, 41, 37, 94, 30]


def test_the_deck_is_a_permutation_of_the_full_deck() -> None:
    for jokers in (False, True):
        seed = new_seed()
        assert sorted(deck_from_seed(seed, jokers)) == sorted(full_deck(jokers))


def test_rejection_sampling_refuses_draws_at_or_over_the_limit() -> None:
    """RULES none (no modulo bias): for n = 3 the limit is 2**32 - 1 (2**32 % 3 == 1), so
    the draw 2**32 - 1 is thrown away and the next one used."""
    assert _below(iter([2**32 - 1, 7]), 3) == 1
    assert _below(iter([2**32 - 2, 0]), 3) == (2**32 - 2) % 3
    assert _below(iter([2**32 - 1, 2**32 - 1, 5]), 3) == 2


def test_a_malformed_seed_is_refused() -> None:
    for bad in ("00" * 31, "G" * 64, "AA" * 32, 7):
        with pytest.raises(ValueError):
            commitment(bad)  # type: ignore[arg-type]


def test_card_positions_are_uniform_over_100000_seeded_shuffles() -> None:
    """Chi-square of (original index, final position) over 100,000 shuffles of 104
    cards (seeds 0..99999): df = 103**2; p from the Wilson-Hilferty approximation,
    which is exact to three decimals at this df. About 8 s on this machine."""
    n, rounds = 104, 100_000
    counts = [[0] * n for _ in range(n)]
    base = list(range(n))
    for k in range(rounds):
        for pos, item in enumerate(shuffled(base, k.to_bytes(32, "big").hex(), b"deck")):
            counts[item][pos] += 1
    expected = rounds / n
    chi = sum((c - expected) ** 2 / expected for row in counts for c in row)
    df = (n - 1) ** 2
    z = ((chi / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    p = 0.5 * math.erfc(z / math.sqrt(2))
    assert p > 0.01, (chi, p)
    assert p < 0.99, (chi, p)  # too even would be as suspect as too uneven


# The match and its record --------------------------------------------------------------
def test_a_deal_shows_its_commitment_and_reveals_its_seed_only_at_its_end() -> None:
    rng = random.Random(3)
    match = Match.new(make_rules("bossa_nova"), ["Ana", "Bia", "Caio", "Duda"])
    state = match.start_deal()
    shown = match.commitment
    seed = match.logs[-1].seed
    assert seed is not None and shown == commitment(seed)
    assert [c.code for c in deck_from_seed(seed)] == match.logs[-1].deck
    while not state.over:
        assert match.revealed_seed is None
        match.act(random_action(state, rng))
    assert match.revealed_seed == seed


def test_a_given_deck_has_no_seed_and_stays_buraco_record_2() -> None:
    match = Match.new(make_rules("buraco"), ["Ana", "Bia"])
    match.start_deal(deck_from_seed(ZERO))
    assert match.commitment is None
    record = match.record()
    assert record["format"] == RECORD_FORMAT and "seed" not in record


def test_the_seed_survives_storage_and_archiving() -> None:
    match = played("buraco_morto", 2, deals=1)
    assert not match.over
    stored = Match.from_json(json.loads(json.dumps(match.to_json())))
    assert stored.logs[0].seed == match.logs[0].seed
    earlier = {"deals": [d for _, d in stored.archive_finished()]}
    stored.start_deal()
    record = stored.record(earlier)
    assert record["format"] == SEEDED_FORMAT
    assert record["deals"][0]["seed"] == match.logs[0].seed
    assert [c.ok for c in verify_record(record)] == [True, True]


def test_a_seeded_record_replays_to_the_match_scores() -> None:
    match = played("altaneira", 4, deals=3)
    record = match.record()
    assert record["format"] == SEEDED_FORMAT
    result = replay(json.loads(json.dumps(record)))
    assert result.ok and result.match_scores == match.scores


def test_seed_fields_outside_buraco_record_3_are_malformed() -> None:
    record = played("buraco", 2).record()
    record["format"] = RECORD_FORMAT
    with pytest.raises(MalformedRecord, match="só existem no formato"):
        replay(record)


@pytest.mark.parametrize("path", ["docs/examples/buraco.json", "docs/examples/tranca.json",
                                  "docs/examples/altaneira.json", "tests/data/replay-buraco.json"])
def test_old_records_keep_their_format_and_still_replay(path: str) -> None:
    record = json.loads((ROOT / path).read_text())
    assert record["format"] in ("buraco-record/1", "buraco-record/2")
    assert replay(record).ok


# 1,000 dealt deals, verified from their records alone ----------------------------------
TABLES = [(preset, n, jokers) for preset, rules in PRESETS.items()
          for n in rules.players_allowed
          for jokers in ((False, True) if rules.jokers_option else (False,))]


def test_1000_dealt_deals_are_verified_by_the_standalone_script() -> None:
    """Every variant and player count (with and without jokers where a group may set
    them), 1,000 deals in all, each a real seeded deal's record; the script (and the
    engine's verifier) say OK for 100% of them, and the hands they recompute are the
    hands dealt."""
    done = 0
    for k in range(1000):
        preset, n, jokers = TABLES[k % len(TABLES)]
        match = Match.new(make_rules(preset, {"jokers": True} if jokers else {}),
                          [f"P{s}" for s in range(n)])
        state = match.start_deal()
        record = json.loads(json.dumps(match.record()))
        code, lines = verify_deal.verify(record, PT)
        assert code == 0, lines
        hands = [line.strip() for line in lines if line.startswith(f"  P{state.first}:")]
        assert hands == [f"P{state.first}: " + " ".join(map(str, state.hands[state.first]))]
        (check,) = verify_record(record)
        assert check.ok and check.hands == state.hands and check.mortos == state.mortos
        assert check.stock == list(reversed(state.stock))
        done += 1
    assert done == 1000


def test_the_script_runs_with_plain_python3_outside_the_project(tmp_path: Path) -> None:
    """Copied alone into an empty folder and run by ``python3 -I`` (no site packages,
    no project on the path), it verifies a three-deal altaneira match."""
    record = played("altaneira", 4, deals=3).record()
    (tmp_path / "jogo.json").write_text(json.dumps(record))
    (tmp_path / "verify_deal.py").write_text(SCRIPT.read_text())
    seen = record["deals"][1]["commitment"]
    done = subprocess.run(["python3", "-I", "verify_deal.py", "jogo.json", "--quiet",
                           "--lang", "en", "--commitment", seen], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Deal 1: OK", "Deal 2: OK", "Deal 3: OK", f"The commitment {seen} is deal 2's.",
        "Result: OK, all 3 deals match their seeds."]


# Tampering -----------------------------------------------------------------------------
def tampered(change: str) -> tuple[dict[str, Any], dict[str, Any]]:
    record = played("bossa_nova", 4, deals=1, seed=7).record()
    original = json.loads(json.dumps(record))
    if change == "seed":
        record["seed"] = new_seed()
    elif change == "commitment":
        record["commitment"] = commitment(new_seed())
    elif change == "swap":
        record["deck"][0], record["deck"][60] = record["deck"][60], record["deck"][0]
    return original, record


def test_a_changed_seed_is_detected() -> None:
    original, record = tampered("seed")
    (check,) = verify_record(record)
    assert check.mismatches[0] == Mismatch("commitment", original["commitment"],
                                           commitment(record["seed"]))
    assert any(m.code == "card" for m in check.mismatches)
    code, lines = verify_deal.verify(record, PT, quiet=True)
    assert code == 1 and lines[0] == "Mão 1: NÃO CONFERE"
    assert lines[1] == (f"  - o compromisso do registro ({original['commitment']}) não é o "
                        f"SHA-256 da semente ({commitment(record['seed'])})")


def test_a_wrong_commitment_is_detected() -> None:
    _, record = tampered("commitment")
    (check,) = verify_record(record)
    assert [m.code for m in check.mismatches] == ["commitment"]
    code, lines = verify_deal.verify(record, PT, quiet=True)
    assert code == 1 and len(lines) == 3 and lines[1].startswith("  - o compromisso do registro")


def test_a_swapped_card_is_detected_with_its_place() -> None:
    original, record = tampered("swap")
    first = original["first"]
    (check,) = verify_record(record)
    assert check.mismatches == [
        Mismatch("card", original["deck"][60], original["deck"][0], 0, ("hand", first, 0)),
        Mismatch("card", original["deck"][0], original["deck"][60], 60, ("morto", 1, 5)),
    ]
    code, lines = verify_deal.verify(record, verify_deal.TEXTS["en"], quiet=True)
    show = verify_deal.shown
    assert code == 1 and lines[1:3] == [
        f"  - deck position 1 (P{first}'s hand, card 1): the record has "
        f"{show(original['deck'][60])}, the seed gives {show(original['deck'][0])}",
        f"  - deck position 61 (morto 2, card 6): the record has "
        f"{show(original['deck'][0])}, the seed gives {show(original['deck'][60])}"]


def test_a_changed_reshuffle_is_detected() -> None:
    record = played("altaneira", 4, deals=1).record()
    record["reshuffle"][0], record["reshuffle"][1] = record["reshuffle"][1], record["reshuffle"][0]
    (check,) = verify_record(record)
    assert [m.code for m in check.mismatches] == ["reshuffle"]
    assert verify_deal.verify(record, PT, quiet=True)[0] == 1


def test_a_seen_commitment_no_deal_has_fails() -> None:
    record = played("buraco", 2).record()
    other = commitment(ZERO)
    code, lines = verify_deal.verify(record, PT, seen=other, quiet=True)
    assert code == 1 and lines[-2] == f"Nenhuma mão deste registro tem o compromisso {other}."


def test_a_deal_without_seed_is_not_called_verified() -> None:
    match = Match.new(make_rules("buraco"), ["Ana", "Bia"])
    match.start_deal(deck_from_seed(ZERO))
    record = match.record()
    (check,) = verify_record(record)
    assert [m.code for m in check.mismatches] == ["no_seed"]
    code, lines = verify_deal.verify(record, PT)
    assert code == 1 and lines[0] == "Mão 1: SEM SEMENTE"


def test_the_script_says_a_file_is_no_record(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text('{"format": "nada"}')
    done = subprocess.run([sys.executable, "-I", str(SCRIPT), str(bad)], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stderr.startswith("Não é um registro de partida")


def test_the_start_of_a_commitment_as_the_table_shows_it_is_accepted() -> None:
    """``--commitment`` takes the first 16 hex digits the guide tells players to note
    (the end-of-deal line shows them with "…"), naming the deal's whole commitment."""
    record = played("altaneira", 4, deals=3).record()
    full = record["deals"][1]["commitment"]
    for seen in (full[:16], full[:16].upper() + "…", full[:40]):
        code, lines = verify_deal.verify(record, PT, seen=seen, quiet=True)
        assert code == 0 and lines[-2] == f"O compromisso {full} é o da mão 2."


def test_a_commitment_start_shorter_than_16_digits_is_refused_with_why() -> None:
    record = played("buraco", 2).record()
    seen = record["commitment"][:15]
    code, lines = verify_deal.verify(record, PT, seen=seen, quiet=True)
    assert code == 1 and lines[-2] == (
        f"O compromisso {seen} é curto demais: dê ao menos 16 letras e algarismos do "
        "começo dele (a mesa mostra 16).")


def test_a_commitment_start_two_deals_share_names_them() -> None:
    record = played("altaneira", 4, deals=3).record()
    start = "ab" * 8
    record["deals"][0]["commitment"] = start + "0" * 48
    record["deals"][2]["commitment"] = start + "1" * 48
    code, lines = verify_deal.verify(record, PT, seen=start, quiet=True)
    assert code == 1 and lines[-2] == (
        f"O começo {start} é o de mais de uma mão (1, 3): dê mais letras do compromisso.")


def test_a_changed_shuffle_field_says_so_and_not_that_the_seed_is_missing() -> None:
    record = played("bossa_nova", 4, deals=1, seed=7).record()
    record["shuffle"] = "hmac-sha256-ctr/2"
    code, lines = verify_deal.verify(record, PT)
    assert code == 1 and lines[:2] == [
        "Mão 1: NÃO CONFERE",
        "  - o campo 'shuffle' é \"hmac-sha256-ctr/2\", não hmac-sha256-ctr/1: a semente "
        "está aí, mas o registro diz outra receita de embaralhar, que este programa não "
        "confere"]


@pytest.mark.parametrize(("text", "why"), [
    ("[]", "o arquivo é JSON, mas não o objeto de um registro (é […]); use o arquivo "
           ".json que exportar manda"),
    ("{}", "falta o campo \"format\": \"buraco-record/…\"; use o arquivo .json que "
           "exportar manda"),
    ('{"format": "nada"}', "o formato \"nada\" não é o de um registro (buraco-record/…)"),
])
def test_json_that_is_no_record_gets_a_plain_reason(tmp_path: Path, text: str,
                                                    why: str) -> None:
    bad = tmp_path / "x.json"
    bad.write_text(text)
    done = subprocess.run([sys.executable, "-I", str(SCRIPT), str(bad)], capture_output=True,
                          text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (2, f"Não é um registro de partida: {why}\n")


@pytest.mark.parametrize(("lang", "line"), [
    ("pt", "Resultado: OK, a mão confere com a semente."),
    ("en", "Result: OK, the deal matches its seed."),
    ("it", "Risultato: OK, la mano corrisponde al seme.")])
def test_the_script_says_one_deal_in_the_singular(lang: str, line: str) -> None:
    """A one-deal match's record: not "todas as 1 mãos" (tester, issue 35)."""
    code, lines = verify_deal.verify(played("buraco", 2).record(), verify_deal.TEXTS[lang])
    assert code == 0 and lines[-1] == line
