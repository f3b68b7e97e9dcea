"""One test per row of RULES §1/§2 for buraco, buraco_morto, bossa_nova, justificado.

Each test is parametrized over the four presets with the value RULES §2 gives in
that preset's column; the behaviour is checked on a deal, not only on the field.
"""

from __future__ import annotations

import pytest

from engine import IllegalAction, legal_moves, make_rules, score_deal, view_for
from engine.cards import full_deck
from engine.state import deal_cards
from tests.rules_support import act, hand_codes, meld_codes, refused, split, state_of

FOUR = ("buraco", "buraco_morto", "bossa_nova", "justificado")
BURACO_FAMILY = ("buraco", "buraco_morto", "bossa_nova")
WITH_MORTO = ("buraco_morto", "bossa_nova", "justificado")
# both mortos still on the table: leaving one card in hand is legal (C13)
MORTOS = {p: ["8c", "8c"] for p in WITH_MORTO}


# §1 players, teams, target, aliases -------------------------------------------------
@pytest.mark.parametrize(
    ("preset", "allowed", "default"),
    [
        ("buraco", (2, 3, 4, 6), 4),
        ("buraco_morto", (2, 3, 4), 4),
        ("bossa_nova", (2, 3, 4), 4),
        ("justificado", (2, 4), 2),
    ],
)
def test_s1_players_per_preset(preset: str, allowed: tuple[int, ...], default: int) -> None:
    """RULES §1 "players": buraco 2, 3, 4, 6; buraco_morto/bossa_nova 2, 3, 4;
    justificado 2 (default), 4 as an option."""
    rules = make_rules(preset)
    assert (rules.players_allowed, rules.default_players) == (allowed, default)
    bad = next(n for n in (5, 6, 3) if n not in allowed)
    with pytest.raises(IllegalAction) as err:
        rules.teams(bad)
    names = ", ".join(str(n) for n in allowed[:-1]) + f" ou {allowed[-1]}"
    assert (err.value.code, err.value.message) == (
        "bad_players",
        f"{preset} aceita {names} jogadores, não {bad}",
    )


def test_s1_teams_pairs_alternate_and_triangles_alternate() -> None:
    """RULES §1: 4 = seats {0,2} and {1,3}; 6 = {0,2,4} and {1,3,5}; 2 or 3 alone."""
    rules = make_rules("buraco")
    assert rules.teams(2) == [[0], [1]]
    assert rules.teams(3) == [[0], [1], [2]]
    assert rules.teams(4) == [[0, 2], [1, 3]]
    assert rules.teams(6) == [[0, 2, 4], [1, 3, 5]]


@pytest.mark.parametrize(
    ("preset", "target"),
    [("buraco", 1500), ("buraco_morto", 1500), ("bossa_nova", 1500), ("justificado", None)],
)
def test_s1_target_per_preset(preset: str, target: int | None) -> None:
    """RULES §1 "target": 1,500 for the buraco family; justificado one deal (A35)."""
    assert make_rules(preset).target == target
    assert make_rules(preset).one_deal is (target is None)


def test_s1_justificado_target_option_3000() -> None:
    """RULES §1 justificado "one deal (option: 3,000)"."""
    rules = make_rules("justificado", {"target": 3000})
    assert (rules.target, rules.one_deal) == (3000, False)


@pytest.mark.parametrize(("alias", "preset"), [("biriba", "buraco_morto"), ("stbl", "justificado")])
def test_s1_aliases(alias: str, preset: str) -> None:
    assert make_rules(alias) == make_rules(preset)


def test_s1_unknown_preset_and_option_are_refused_with_reason() -> None:
    with pytest.raises(IllegalAction) as err:
        make_rules("pif")
    assert err.value.code == "unknown_preset"
    assert err.value.message.startswith("variante desconhecida: 'pif' (conheço: ")
    with pytest.raises(IllegalAction) as err:
        make_rules("buraco", {"sets_allowed": False})
    assert err.value.code == "unknown_option"
    assert err.value.message.startswith("opção desconhecida ou fixa nesta variante: 'sets_allowed'")


# §2 decks ---------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", BURACO_FAMILY)
def test_s2_decks_buraco_family_jokers_option(preset: str) -> None:
    """RULES §2 "decks": 2×52; jokers option (off; 2 jokers, wild, 10 pts)."""
    assert make_rules(preset).jokers is False
    rules = make_rules(preset, {"jokers": True})
    state = deal_cards(rules, 2, full_deck(True))
    assert sum(state.all_cards().values()) == 106


def test_s2_decks_justificado_has_no_jokers_option() -> None:
    """RULES §2 "decks": justificado is plain 2×52 (jokers are a buraco-family option,
    RULES "Jokers")."""
    assert make_rules("justificado").jokers is False
    with pytest.raises(IllegalAction) as err:
        make_rules("justificado", {"jokers": True})
    assert (err.value.code, err.value.message) == (
        "bad_option",
        "jokers só existem na família buraco",
    )


# §2 deal ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("preset", "players", "mortos", "stock"),
    [
        ("buraco", 2, [0, 0], 104 - 22),
        ("buraco", 3, [0, 0, 0], 104 - 33),
        ("buraco", 4, [0, 0], 104 - 44),
        ("buraco", 6, [0, 0], 104 - 66),
        ("buraco_morto", 2, [11, 11], 104 - 22 - 22),
        ("buraco_morto", 3, [11, 11, 11], 104 - 33 - 33),
        ("buraco_morto", 4, [11, 11], 104 - 44 - 22),
        ("bossa_nova", 2, [11, 11], 104 - 22 - 22),
        ("bossa_nova", 4, [11, 11], 104 - 44 - 22),
        ("justificado", 2, [11, 11], 104 - 22 - 22),
        ("justificado", 4, [11, 11], 104 - 44 - 22),
    ],
)
def test_s2_deal_eleven_each_and_one_morto_per_side(
    preset: str, players: int, mortos: list[int], stock: int
) -> None:
    """RULES §2 "deal": 11 each (+ one morto of 11 per side; justificado 2 mortos)."""
    state = deal_cards(make_rules(preset), players, full_deck(), 0)
    assert [len(h) for h in state.hands] == [11] * players
    assert [len(m) for m in state.mortos] == mortos
    assert len(state.stock) == stock
    assert (state.turn, state.phase, state.pile) == (0, "draw", [])


def test_s2_deal_procedure_one_card_at_a_time_from_first_then_mortos() -> None:
    """engine.state.deal_cards: one card at a time from ``first``, then the mortos in
    side order, then the stock (deck top first). Deck here: two decks in face order."""
    state = deal_cards(make_rules("buraco_morto"), 2, full_deck(), first=1)
    pos = state.to_json()
    assert pos["hands"][1] == split("Ac 3c 5c 7c 9c Jc Kc 2d 4d 6d 8d")
    assert pos["hands"][0] == split("2c 4c 6c 8c 10c Qc Ad 3d 5d 7d 9d")
    assert pos["mortos"] == [
        split("10d Jd Qd Kd Ah 2h 3h 4h 5h 6h 7h"),
        split("8h 9h 10h Jh Qh Kh As 2s 3s 4s 5s"),
    ]
    assert pos["stock"][:3] == ["6s", "7s", "8s"]
    assert state.turn == 1


# §2 melds -------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", FOUR)
def test_s2_melds_runs_and_sets_or_runs_only(preset: str) -> None:
    """RULES §2 "melds": runs + sets (buraco family), runs only (justificado)."""
    st = state_of(preset, ["9c 9d 9h 5s 6s 7s Kd", "4c"], mortos=MORTOS.get(preset))
    act(st, {"seat": 0, "do": "meld", "melds": [["5s", "6s", "7s"]]})
    record = {"seat": 0, "do": "meld", "melds": [["9c", "9d", "9h"]]}
    if preset == "justificado":
        refused(
            st, record, "meld_set_forbidden", "nesta variante só valem sequências do mesmo naipe"
        )
    else:
        act(st, record)
        assert meld_codes(st, 0) == [["5s", "6s", "7s"], ["9c", "9d", "9h"]]


# §2 set size -------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", BURACO_FAMILY)
def test_s2_set_size_three_to_eight_with_two_naturals(preset: str) -> None:
    """RULES §2 "set size": 3–8 incl. the wild, ≥2 naturals."""
    st = state_of(preset, ["Qc Qd 2s Qh Qs Qc Qd Qh Qs Kd", "4c"], mortos=None)
    refused(
        st,
        {"seat": 0, "do": "meld", "melds": [["Qc", "2s", "Kd"]]},
        "meld_mixed_suits",
        "uma sequência precisa ser toda do mesmo naipe",
    )
    act(st, {"seat": 0, "do": "meld", "melds": [["Qc", "Qd", "2s"]]})
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["Qh", "Qs", "Qc", "Qd", "Qh"]})
    assert len(st.melds[0][0]) == 8
    refused(
        st,
        {"seat": 0, "do": "extend", "meld": 0, "cards": ["Qs"]},
        "meld_set_too_big",
        "uma trinca tem no máximo 8 cartas",
    )


# §2 ace ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", FOUR)
def test_s2_ace_low_high_or_both_ends_in_a_to_a(preset: str) -> None:
    """RULES §2 "ace": low (A-2-3) or high (Q-K-A), both ends only in the 14-card A..A."""
    hand = "Ac 2c 3c Qd Kd Ad As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As"
    st = state_of(preset, [hand, "4c"], mortos=MORTOS.get(preset))
    act(
        st,
        {
            "seat": 0,
            "do": "meld",
            "melds": [
                ["Ac", "2c", "3c"],
                ["Ad", "Kd", "Qd"],
                split("As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As"),
            ],
        },
    )
    assert meld_codes(st, 0)[:2] == [["Ac", "2c", "3c"], ["Qd", "Kd", "Ad"]]
    assert st.melds[0][2].canastra == ("de_mil" if preset == "justificado" else "limpa")


# §2 wild cards -----------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", FOUR)
def test_s2_wild_cards_are_the_twos(preset: str) -> None:
    """RULES §2 "wild cards": the 2s (any suit stands in for any card of a run)."""
    st = state_of(preset, ["9h 2s Jh 5c 2d 7c Kd", "4c"], mortos=MORTOS.get(preset))
    act(st, {"seat": 0, "do": "meld", "melds": [["9h", "2s", "Jh"], ["5c", "2d", "7c"]]})
    assert [m.wild.code if m.wild else None for m in st.melds[0]] == ["2s", "2d"]


@pytest.mark.parametrize("preset", BURACO_FAMILY)
def test_s2_wild_cards_jokers_when_on(preset: str) -> None:
    """RULES §2 "wild cards": the 2s and jokers if on."""
    st = state_of(
        preset, ["9h JK Jh Kd", "4c"], options={"jokers": True}, mortos=MORTOS.get(preset)
    )
    act(st, {"seat": 0, "do": "meld", "melds": [["9h", "JK", "Jh"]]})
    assert meld_codes(st, 0) == [["9h", "JK", "Jh"]]


# §2 3s ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", FOUR)
def test_s2_threes_are_ordinary(preset: str) -> None:
    """RULES §2 "3s": ordinary in all four: melded in runs, never laid alone, discardable."""
    st = state_of(preset, ["3h 4h 5h 3s 3d Kd", "4c"], mortos=MORTOS.get(preset))
    refused(
        st,
        {"seat": 0, "do": "lay_three", "card": "3d"},
        "no_threes",
        "neste jogo o 3 é uma carta comum",
    )
    act(st, {"seat": 0, "do": "meld", "melds": [["3h", "4h", "5h"]]})
    act(st, {"seat": 0, "do": "discard", "card": "3s"})
    assert (st.pile[-1].code, st.pile_blocked, st.turn) == ("3s", False, 1)


# §2 first player's first turn (A9) ----------------------------------------------------------
@pytest.mark.parametrize("preset", FOUR)
def test_s2_a9_first_player_may_take_a_second_card(preset: str) -> None:
    """RULES A9 (buraco family): the first drawn card starts the pile and the first player
    draws again; justificado "—" (seed 003 has no such exception)."""
    state = deal_cards(make_rules(preset), 2, full_deck(), 0)
    top = state.to_json()["stock"][:2]  # ["10d", "Jd"] for buraco, ...
    act(state, {"seat": 0, "do": "draw"})
    if preset == "justificado":
        refused(
            state,
            {"seat": 0, "do": "redraw"},
            "no_redraw",
            "nesta variante não se troca a primeira carta comprada",
        )
        return
    act(state, {"seat": 0, "do": "redraw"})
    assert state.to_json()["pile"] == [top[0]]
    assert top[1] in [c.code for c in state.hands[0]] and len(state.hands[0]) == 12
    assert state.phase == "play"
    refused(
        state,
        {"seat": 0, "do": "redraw"},
        "no_redraw",
        "só o primeiro jogador, logo após a primeira compra, troca a carta",
    )


@pytest.mark.parametrize("preset", BURACO_FAMILY)
def test_a9_second_card_only_for_the_first_player_first_turn(preset: str) -> None:
    state = deal_cards(make_rules(preset), 2, full_deck(), 0)
    act(state, {"seat": 0, "do": "draw"})
    act(state, {"seat": 0, "do": "discard", "card": state.drawn.code if state.drawn else ""})
    act(state, {"seat": 1, "do": "draw"})
    refused(
        state,
        {"seat": 1, "do": "redraw"},
        "no_redraw",
        "só o primeiro jogador, logo após a primeira compra, troca a carta",
    )


# §2 discard pile ----------------------------------------------------------------------------
@pytest.mark.parametrize("preset", BURACO_FAMILY)
def test_s2_discard_pile_open_whole_pile_no_justification(preset: str) -> None:
    """RULES §2 "discard pile" (buraco family): whole pile, open, no justification."""
    st = state_of(preset, ["Kd Qs", "4c 8d"], pile="9c 5h 5d", stock="Jc", turn=1, phase="draw")
    assert view_for(st, 0).pile == st.pile  # open: every card visible to everyone
    refused(
        st,
        {"seat": 1, "do": "take_pile", "with": ["4c", "8d"]},
        "pile_open",
        "neste jogo o lixo é aberto: pegue-o e depois baixe seus jogos",
    )
    act(st, {"seat": 1, "do": "take_pile"})
    assert hand_codes(st, 1) == ["4c", "5d", "5h", "8d", "9c"]
    assert (st.pile, st.phase) == ([], "play")


@pytest.mark.parametrize("preset", BURACO_FAMILY)
def test_s2_a23_single_card_may_not_take_single_card_pile(preset: str) -> None:
    """RULES A23: a player holding a single card may not take a pile of a single card."""
    st = state_of(preset, ["Kd Qs", "4c"], pile="9c", stock="Jc", turn=1, phase="draw")
    assert legal_moves(view_for(st, 1)).can_take_pile is False  # no such button either
    refused(
        st,
        {"seat": 1, "do": "take_pile"},
        "single_card_pile",
        "com uma carta na mão não se pega lixo de uma carta só",
    )
    two = state_of(preset, ["Kd Qs", "4c"], pile="9c 9d", stock="Jc", turn=1, phase="draw")
    act(two, {"seat": 1, "do": "take_pile"})
    assert hand_codes(two, 1) == ["4c", "9c", "9d"]
    pair = state_of(preset, ["Kd Qs", "4c 4d"], pile="9c", stock="Jc", turn=1, phase="draw")
    act(pair, {"seat": 1, "do": "take_pile"})
    assert hand_codes(pair, 1) == ["4c", "4d", "9c"]


def test_s2_discard_pile_justificado_closed_and_justified() -> None:
    """RULES §2 "discard pile" (justificado): closed (top shown); the top card is melded
    this turn with ≥2 hand cards or onto a side's meld (A10); the rest goes to the hand."""
    pos = dict(pile="Kc 9c 7h", stock="Jc", turn=1, phase="draw", mortos=["5c", "5d"])
    st = state_of("justificado", ["Kd Qs", "8h 9h 4c"], **pos)
    assert (view_for(st, 0).pile, view_for(st, 0).pile_size) == ([st.pile[-1]], 3)
    assert legal_moves(view_for(st, 1)).pile_needs_justification is True
    refused(
        st,
        {"seat": 1, "do": "take_pile"},
        "justify_needed",
        "para pegar o lixo, baixe a carta de cima num jogo",
    )
    refused(
        st,
        {"seat": 1, "do": "take_pile", "with": ["8h"]},
        "justify_two_cards",
        "para pegar o lixo, junte a carta de cima com 2 ou mais da mão",
    )
    act(st, {"seat": 1, "do": "take_pile", "with": ["8h", "9h"]})
    assert meld_codes(st, 1) == [["7h", "8h", "9h"]]
    assert hand_codes(st, 1) == ["4c", "9c", "Kc"]
    assert (st.pile, st.phase) == ([], "play")


def test_a38_justificado_new_meld_uses_no_other_pile_card() -> None:
    """RULES A38 / seed 003: "em um novo jogo sem usar nenhuma outra carta da lixeira"."""
    st = state_of(
        "justificado",
        ["Kd Qs", "8h 4c"],
        pile="9h 7h",
        stock="Jc",
        turn=1,
        phase="draw",
        mortos=["5c", "5d"],
    )
    refused(
        st,
        {"seat": 1, "do": "take_pile", "with": ["8h", "9h"]},
        "not_in_hand",
        "você não tem: 9♥",
    )


def test_a10_justificado_top_card_onto_the_sides_meld() -> None:
    st = state_of(
        "justificado",
        ["Kd Qs", "4c"],
        melds=[[], ["4h 5h 6h"]],
        pile="Kc 7h",
        stock="Jc",
        turn=1,
        phase="draw",
        mortos=["5c", "5d"],
    )
    act(st, {"seat": 1, "do": "take_pile", "meld": 0})
    assert meld_codes(st, 1) == [["4h", "5h", "6h", "7h"]]
    assert hand_codes(st, 1) == ["4c", "Kc"]


def test_justificado_has_no_single_card_pile_rule() -> None:
    """RULES §2 "discard pile": A23 is a buraco-family rule; justificado ("same as
    tranca") only asks for the justification."""
    st = state_of(
        "justificado",
        ["Kd Qs", "4c"],
        melds=[[], ["4h 5h 6h"]],
        pile="7h",
        stock="Jc",
        turn=1,
        phase="draw",
        mortos=["5c", "5d"],
    )
    act(st, {"seat": 1, "do": "take_pile", "meld": 0})
    assert hand_codes(st, 1) == ["4c"]


# §2 going out --------------------------------------------------------------------------------
def test_s2_going_out_buraco_no_condition() -> None:
    """RULES §2 "going out" (buraco): no condition; A17 no canastra needed."""
    st = state_of("buraco", ["5h 9c", "4c 8d"], melds=[["6h 7h 8h"], []])
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["5h"]})
    events = act(st, {"seat": 0, "do": "discard", "card": "9c"})
    assert events == ["discarded", "went_out", "deal_over"]
    assert (st.over, st.went_out) == (True, 0)


@pytest.mark.parametrize("preset", WITH_MORTO)
def test_s2_going_out_first_time_takes_the_morto_without_canastra(preset: str) -> None:
    """RULES §2 "going out": the first going-out takes the morto with no condition
    (buraco_morto A17; bossa_nova A16; justificado "taking the morto: no condition")."""
    st = state_of(
        preset,
        ["5h 9c", "4c 8d"],
        melds=[["6h 7h 8h"], []],
        mortos=["Jd Qd Kd", "As Ks"],
        stock="Jc",
    )
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["5h"]})
    events = act(st, {"seat": 0, "do": "discard", "card": "9c"})
    assert events == ["discarded", "took_morto"]
    assert (st.over, st.morto_taken, st.turn) == (False, [True, False], 1)


@pytest.mark.parametrize(
    ("preset", "meld", "code", "message"),
    [
        ("buraco_morto", "5h 6h 7h 8h", None, None),
        ("bossa_nova", "3s 4s 5s 6s 7s 2c 9s", None, None),
        ("justificado", "3s 4s 5s 6s 7s 8s 9s", None, None),
        (
            "justificado",
            "3s 4s 5s 6s 7s 2c 9s",
            "need_clean_canastra",
            "para bater é preciso ter uma canastra limpa",
        ),
    ],
)
def test_s2_going_out_second_time_ends_the_deal_by_preset(
    preset: str, meld: str, code: str | None, message: str | None
) -> None:
    """RULES §2 "going out": buraco_morto ends with no canastra (A17); bossa_nova needs
    any canastra, a suja will do (A16); justificado a clean canastra (seed 003 "pelo
    menos uma canastra limpa"), a suja will not."""
    st = state_of(preset, ["9c", "4c 8d"], melds=[[meld], []], mortos=["", "As Ks"])
    record = {"seat": 0, "do": "discard", "card": "9c"}
    if code is None:
        assert act(st, record) == ["discarded", "went_out", "deal_over"]
        assert (st.over, st.went_out) == (True, 0)
    else:
        refused(st, record, code, message or "")


def test_s2_going_out_bossa_nova_without_canastra_is_refused() -> None:
    """RULES A16, C13 (bossa_nova): no canastra, no going-out that ends the deal."""
    st = state_of("bossa_nova", ["9c", "4c 8d"], melds=[["5h 6h 7h 8h"], []], mortos=["", "As"])
    refused(
        st,
        {"seat": 0, "do": "discard", "card": "9c"},
        "need_canastra",
        "para bater é preciso ter pelo menos uma canastra",
    )


# §2 canastra values ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("preset", "specials"),
    [("buraco", []), ("buraco_morto", []), ("bossa_nova", []), ("justificado", [("de_mil", 1000)])],
)
def test_s2_canastra_values(preset: str, specials: list[tuple[str, int]]) -> None:
    """RULES §2 "canastra": limpa 200, suja 100; justificado also de mil (clean A..A) 1,000."""
    rules = make_rules(preset)
    assert (rules.clean_bonus, rules.dirty_bonus) == (200, 100)
    assert [(s.key, s.bonus) for s in rules.special_canastras] == specials


# §2 batida bonus, morto not taken ---------------------------------------------------------
@pytest.mark.parametrize(
    ("preset", "batida", "morto"),
    [
        ("buraco", 50, 0),
        ("buraco_morto", 50, -100),
        ("bossa_nova", 50, -100),
        ("justificado", 100, -100),
    ],
)
def test_s2_batida_bonus_and_morto_not_taken(preset: str, batida: int, morto: int) -> None:
    """RULES §2 "batida bonus" 50/50/50/100 and "morto not taken" —/−100/−100/−100.
    Seat 0 (morto taken) ends the deal with a clean canastra; seat 1 never took its morto.
    side 0: melded 5h..Jh = 5*3 + 10*4 = 55; limpa 200; batida; hand 0.
    side 1: melded 0; hand 4c 8d = -(5 + 10) = -15; morto."""
    mortos = ["", "As Ks"] if preset != "buraco" else None
    st = state_of(preset, ["5h 9c", "4c 8d"], melds=[["6h 7h 8h 9h 10h Jh"], []], mortos=mortos)
    act(st, {"seat": 0, "do": "extend", "meld": 0, "cards": ["5h"]})
    act(st, {"seat": 0, "do": "discard", "card": "9c"})
    score = score_deal(st)
    assert score.totals == [55 + 200 + batida, -15 + morto]
    assert (score.breakdown[0]["batida"], score.breakdown[1]["morto"]) == (batida, morto)


# §2 extras ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("preset", "relancinho", "vulnerable_at"),
    [
        ("buraco", 100, 750),
        ("buraco_morto", 100, 750),
        ("bossa_nova", 100, 750),
        ("justificado", 0, None),
    ],
)
def test_s2_extras_relancinho_and_vulnerability(
    preset: str, relancinho: int, vulnerable_at: int | None
) -> None:
    """RULES §2 "extras": relancinho +100 (A21) and vulnerability at 750 (A22) in the
    buraco family; justificado "—". Seat 0 (never laid before) melds the whole hand in one
    turn (a relancinho) with 9h..Jh + 4c 5c 6c = 30 + 15 = 45 points (short of 75)."""
    mortos = MORTOS.get(preset)
    st = state_of(preset, ["9h 10h Jh 4c 5c 6c Kd", "4d 8d"], mortos=mortos, scores=[800, 0])
    events = act(st, {"seat": 0, "do": "meld", "melds": [["9h", "10h", "Jh"], ["4c", "5c", "6c"]]})
    if vulnerable_at is not None:
        assert events == ["lay_down_short"]  # RULES A22: refused, now needs 90
        assert (st.melds[0], st.vuln_min[0]) == ([], 90)
        return
    assert events == ["melded"]
    act(st, {"seat": 0, "do": "discard", "card": "Kd"})
    score = score_deal(st)
    assert score.breakdown[0]["relancinho"] == relancinho == 0


# §2 stock runs out (A26) ------------------------------------------------------------------
def test_s2_a26_buraco_deal_ends_after_the_discard_that_empties_the_stock() -> None:
    """RULES A26 (buraco): the stock empty at the next draw ends the deal, no batida
    (docs/rules-decisions.md D14).
    side 0: hand 5h 9c = -(5+10) = -15; side 1: 4c 8d Kd = -(5+10+10) = -25."""
    st = state_of("buraco", ["5h 9c", "4c 8d"], stock="Kd", turn=1, phase="draw")
    act(st, {"seat": 1, "do": "draw"})
    events = act(st, {"seat": 1, "do": "discard", "card": "4c"})
    assert events == ["discarded", "deal_over"]
    assert (st.over, st.went_out) == (True, -1)
    assert score_deal(st).totals == [-15, -(10 + 10)]


@pytest.mark.parametrize("preset", WITH_MORTO)
def test_s2_a26_untaken_mortos_become_stock_then_the_deal_ends(preset: str) -> None:
    """RULES A26: at an empty stock the untaken morto becomes the stock (its side still
    pays −100); with no stock and no morto the deal ends without a batida bonus.
    side 0 at the end: hand 9c Qh = -20, morto −100 => -120.
    side 1 (morto taken): hand 4d 8d = -15."""
    st = state_of(
        preset, ["9c Qh", "4d 8d"], stock="Kd", mortos=["5s 6s", ""], turn=1, phase="draw"
    )
    act(st, {"seat": 1, "do": "draw"})
    events = act(st, {"seat": 1, "do": "discard", "card": "Kd"})
    assert events == ["discarded", "stock_from_morto"]
    assert (st.to_json()["stock"], st.mortos, st.turn) == (["5s", "6s"], [[], []], 0)
    act(st, {"seat": 0, "do": "draw"})
    act(st, {"seat": 0, "do": "discard", "card": "5s"})
    act(st, {"seat": 1, "do": "draw"})
    events = act(st, {"seat": 1, "do": "discard", "card": "6s"})
    assert events == ["discarded", "deal_over"]
    score = score_deal(st)
    assert score.totals == [-20 - 100, -15]
    assert score.breakdown[0]["batida"] == score.breakdown[1]["batida"] == 0
