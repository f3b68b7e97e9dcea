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
        ("altaneira", {"default_players": 2}, "bad_option", "opção inválida"),
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
