"""Rules options a group sets with ``/novojogo`` (issue 2 "Rules as data")."""

from __future__ import annotations

import pytest

from engine import IllegalAction, make_rules


def test_a22_vulnerability_follows_half_of_a_custom_target() -> None:
    """RULES A22 "reaches 750 (half the target)": target 3,000 -> vulnerable at 1,500."""
    assert make_rules("buraco").vulnerable_at == 750
    assert make_rules("buraco", {"target": "3000"}).vulnerable_at == 1500
    assert make_rules("bossa_nova", {"target": 2000, "vulnerable_at": 900}).vulnerable_at == 900
    assert make_rules("buraco", {"vulnerable_at": "off"}).vulnerable_at is None
    # justificado has no vulnerability; a target there does not switch it on
    assert make_rules("justificado", {"target": 3000}).vulnerable_at is None


def test_options_accept_text_values_and_aliases() -> None:
    rules = make_rules("Biriba", {"target": "none", "jokers": "true"})
    assert (rules.preset, rules.target, rules.jokers) == ("buraco_morto", None, True)


@pytest.mark.parametrize(
    ("preset", "options", "code", "message"),
    [
        ("buraco", {"sets_allowed": False}, "unknown_option", "opção desconhecida ou fixa"),
        ("tranca", {"jokers": True}, "bad_option", "jokers só existem na família buraco"),
        ("buraco", {"target": "muito"}, "bad_option", "opção inválida (target)"),
        ("altaneira", {"players_allowed": "2"}, "unknown_option", "opção desconhecida ou fixa"),
        ("altaneira", {"default_players": 2}, "unknown_option",
         "opção desconhecida ou fixa nesta variante: 'default_players'"),
        ("pif", {}, "unknown_preset", "variante desconhecida: 'pif'"),
    ],
)
def test_unknown_or_contradictory_options_are_refused_with_the_reason(
    preset: str, options: dict[str, object], code: str, message: str
) -> None:
    with pytest.raises(IllegalAction) as err:
        make_rules(preset, options)
    assert err.value.code == code
    assert err.value.message.startswith(message)


def test_records_refuse_positions_the_variant_cannot_have() -> None:
    """docs/record-format.md: a buraco position has no morto; scores are whole numbers;
    ``reshuffle`` belongs to altaneira (RULES A26); ``deck`` and ``position`` exclude
    each other."""
    from engine import DealState
    from engine.record import MalformedRecord, replay

    base = {"hands": [["7h"], ["8h"]], "melds": [[], []], "turn": 0, "phase": "draw"}
    cases = [
        (dict(base, mortos=[["Qd"], ["Jd"]]), "posição inválida: esta variante não tem morto"),
        (dict(base, scores=[1.5, 0]),
         "posição inválida: 'scores' precisa ter 2 números inteiros válidos"),
        (dict(base, vuln_min=[-5, 0]),
         "posição inválida: 'vuln_min' precisa ter 2 números inteiros válidos"),
        (dict(base, reshuffle=[1, 0]),
         "posição inválida: 'reshuffle' só existe quando o lixo volta ao monte"),
    ]
    for position, message in cases:
        with pytest.raises(IllegalAction) as err:
            DealState.from_json(make_rules("buraco"), position)
        assert (err.value.code, err.value.message) == ("bad_position", message)
    record = {"format": "buraco-record/1", "variant": "buraco", "players": ["a", "b"],
              "position": base, "deck": [], "actions": []}
    with pytest.raises(MalformedRecord, match="'deck' ou 'position', não os dois"):
        replay(record)


def test_view_tells_every_seat_what_was_taken_from_the_open_pile_until_it_leaves() -> None:
    """Open pile (RULES §2 "discard pile": all cards visible): what a seat took is public
    knowledge until that seat lays or discards it; nobody learns anything else."""
    from engine import Action, DealState, apply, parse_cards, view_for

    position = {"hands": [["7h", "8h", "Kc", "4s"], ["Qd", "Jd", "2c"]],
                "melds": [[], []], "pile": ["9h", "5d"], "stock": ["Ac", "Ad"],
                "turn": 0, "phase": "draw"}
    state = DealState.from_json(make_rules("buraco"), position)
    apply(state, Action.take_pile(0))
    assert [c.code for c in view_for(state, 1).seen_taken[0]] == ["9h", "5d"]
    apply(state, Action.lay_down(0, [parse_cards("7h 8h 9h")]))
    apply(state, Action.discard(0, parse_cards("Kc")[0]))
    assert [c.code for c in view_for(state, 1).seen_taken[0]] == ["5d"]
    assert view_for(state, 1).seen_taken[1] == []


def test_a_match_stored_with_the_retired_default_players_option_still_loads() -> None:
    from engine.match import Match

    match = Match.new(make_rules("tranca"), ["Ana", "Bia"])
    data = match.to_json()
    data["options"] = {**data["options"], "default_players": 2}
    assert Match.from_json(data).rules == make_rules("tranca")


@pytest.mark.parametrize("preset", ["tranca", "justificado", "altaneira"])
@pytest.mark.parametrize("option", [("relancinho_bonus", "200"), ("vulnerable_at", "600"),
                                    ("single_card_pile_rule", "false")])
def test_a21_a22_a23_are_buraco_family_options_only(
        preset: str, option: tuple[str, str]) -> None:
    """RULES A21 (relancinho), A22 (vulnerability), A23 (one-card pile) are the buraco
    family's: a new closed-pile table refuses them by name, listing what it takes."""
    key, value = option
    with pytest.raises(IllegalAction) as refused:
        make_rules(preset, {key: value})
    assert refused.value.code == "unknown_option"
    assert refused.value.params["key"] == repr(key)
    assert key not in str(refused.value.params["options"]).split(", ")
    assert make_rules("buraco", {key: value}) != make_rules("buraco")


@pytest.mark.parametrize(("preset", "taken"), [("tranca", False), ("justificado", False),
                                               ("altaneira", True), ("buraco_morto", True)])
def test_a9_the_first_players_second_card_is_an_option_where_the_rule_exists(
        preset: str, taken: bool) -> None:
    """RULES A9: buraco family and altaneira (seed 000 §10.1); tranca and justificado
    have no such rule, so no option for it."""
    if taken:
        assert make_rules(preset, {"first_player_second_card": "false"}) \
            .first_player_second_card is False
    else:
        with pytest.raises(IllegalAction, match="unknown_option"):
            make_rules(preset, {"first_player_second_card": "true"})


def test_a_match_stored_with_a_family_option_before_the_limit_still_loads() -> None:
    """A tranca stored with ``relancinho_bonus`` (which a new table may no longer set)
    is read back with its rules, not lost."""
    from engine.match import Match

    match = Match.new(make_rules("tranca"), ["Ana", "Bia"])
    data = match.to_json()
    data["options"] = {**data["options"], "relancinho_bonus": 100}
    assert Match.from_json(data).rules.relancinho_bonus == 100
