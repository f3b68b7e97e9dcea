"""Settings, button payloads, /ajuda, /regras, chat migration, the AI fallback."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError
from test_service_support import ANA, BIA, CHAT, game_of, kinds, only

from bot import robot
from bot.effects import Button, ChatRef, Reply, pack, unpack
from bot.service import Service
from bot.settings import Settings
from engine.actions import Action
from engine.cards import parse_cards
from engine.deal import new_deal
from engine.rules import make_rules


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/15")
    monkeypatch.setenv("TELEGRAM_TOKEN", "123:abc")
    monkeypatch.setenv("TURN_TIMER_S", "60")
    monkeypatch.setenv("WEBHOOK_PORT", "8080")
    s = Settings(_env_file=None)
    assert (s.redis_url, s.telegram_token, s.turn_timer_s, s.webhook_port) == (
        "redis://127.0.0.1:6379/15", "123:abc", 60, 8080)
    assert (s.discord_token, s.webhook_url, s.telegram_base_url, s.log_level) == (
        None, None, None, "INFO")


def test_settings_defaults_and_bad_values(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("REDIS_URL", "TURN_TIMER_S"):
        monkeypatch.delenv(name, raising=False)
    s = Settings(_env_file=None)
    assert (s.redis_url, s.turn_timer_s, s.webhook_listen, s.webhook_port) == (
        None, 90, "0.0.0.0", 8443)
    monkeypatch.setenv("TURN_TIMER_S", "2")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)


def test_states_are_written_as_z3_unless_state_codec_says_z1_or_z2(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/deploy.md "Rolling deploys": the release before this one reads "z3:", so a
    rolling deploy from it needs no setting; "z2:" for a roll from an older release;
    "z1:" for a deploy from a release older than "z2:"."""
    monkeypatch.delenv("STATE_CODEC", raising=False)
    assert Settings(_env_file=None).state_codec == "z3"
    for codec in ("z1", "z2"):
        monkeypatch.setenv("STATE_CODEC", codec)
        assert Settings(_env_file=None).state_codec == codec
    monkeypatch.setenv("STATE_CODEC", " Z2 ")  # as LOG_LEVEL takes "debug"
    assert Settings(_env_file=None).state_codec == "z2"
    monkeypatch.setenv("STATE_CODEC", "z4")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)


def test_payloads_round_trip_and_stay_short() -> None:
    assert pack("k3f9qz2a", 17, "t", 4) == "k3f9qz2a|17|t|4"
    assert unpack("k3f9qz2a|17|t|4") == ("k3f9qz2a", 17, "t", "4")
    assert unpack("k3f9qz2a|x|t|4") is None and unpack("hello") is None
    with pytest.raises(ValueError, match="over 64 bytes"):
        pack("g" * 60, 1, "t", 1)
    with pytest.raises(ValidationError):
        Button(label="x", data="y" * 65)


async def test_help_and_rules(svc: Service) -> None:
    text = only(await svc.help(CHAT, ANA), "reply").text
    assert text.splitlines()[0] == "Comandos:"
    assert "/voltar — retomar seu lugar depois de ausência" in text
    rules = only(await svc.rules_text(CHAT, ANA, "tranca"), "reply").text
    assert rules.splitlines() == ["Tranca", "Jogadores: 2, 4", "Meta: uma mão", "Com morto",
                                  "Lixo fechado: justificar o topo", "Sequências e trincas",
                                  # RULES §2 "ace", A32, A33 (a trial: regras left them out)
                                  "Ás só alto: Q-K-A, nunca A-2-3",
                                  "3 vermelho: baixado sozinho assim que chega, +100 com "
                                  "canastra, −100 sem; nunca descartado",
                                  "3 preto: nunca entra em jogo; descartado, tranca o lixo "
                                  "para o próximo",
                                  # RULES A8, C14 (a trial: regras left the scoring out)
                                  "Valor das cartas: 10 cada",
                                  "Canastras: limpa 200 · suja 100",
                                  "Morto não pego: −100",
                                  "Batida: 100 pontos",
                                  "Para bater e pegar o morto: não precisa de canastra; "
                                  "para bater e encerrar a mão: precisa de uma canastra limpa.",
                                  "Opções da mesa (/novojogo tranca opção=valor): target (meta "
                                  "de pontos), morto_requires (o que pegar o "
                                  "morto exige), end_requires (o que a batida exige), "
                                  "second_morto_direct_only (segundo morto só direto), "
                                  "timer ou "
                                  "tempo (segundos por jogada), shuffle ou sortear (sortear as "
                                  "duplas)"]
    refused = await svc.rules_text(CHAT, ANA, "pife")
    assert refused[0].text.startswith("Variante desconhecida: 'pife'")
    # Discord's /novojogo takes the variant from a list and the options in its own field
    discord = ChatRef(platform="dc", chat_id="7", title="#buraco")
    told = only(await svc.rules_text(discord, ANA, "tranca"), "reply").text.splitlines()
    assert told[14].startswith("Opções da mesa (/novojogo, variante tranca, em opcoes: "
                              "opção=valor): target (meta de pontos), ")


async def test_regras_without_a_preset_states_the_rules_of_the_table_in_play(
        svc: Service) -> None:
    """RULES §2 as the table plays it: a tranca opened with target=3000 is told as tranca
    to 3000 points that needs a clean canastra to end the deal, in the lobby and in play;
    with no game in the chat, the default table's (RULES A0, Bossa Nova)."""
    plain = only(await svc.rules_text(CHAT, ANA), "reply").text.splitlines()
    assert plain[:3] == ["Buraco Bossa Nova", "Jogadores: 2, 3, 4", "Meta: 1500 pontos"]
    await svc.new_game(CHAT, ANA, "tranca target=3000")
    for step in ("lobby", "playing"):
        lines = only(await svc.rules_text(CHAT, ANA, " "), "reply").text.splitlines()
        assert lines[:3] == ["Tranca", "Jogadores: 2, 4", "Meta: 3000 pontos"], step
        assert lines[11:15] == [
            "Morto não pego: −100", "Batida: 100 pontos",
            "Para bater e pegar o morto: não precisa de canastra; para bater e encerrar a "
            "mão: precisa de uma canastra limpa.", "Opções da mesa (/novojogo tranca "
            "opção=valor): target (meta de pontos), morto_requires (o que pegar o morto "
            "exige), end_requires (o que a batida exige), second_morto_direct_only (segundo "
            "morto só direto), timer ou tempo (segundos por jogada), shuffle ou sortear "
            "(sortear as duplas)"], step
        if step == "lobby":
            await svc.join(CHAT, BIA)
            await svc.start(CHAT, ANA)
    named = only(await svc.rules_text(CHAT, ANA, "tranca"), "reply").text.splitlines()
    assert named[2] == "Meta: uma mão"  # a preset named: its defaults
    assert lines[-1] == "Nesta mesa: target=3000"  # the table's own options, last
    assert not named[-1].startswith("Nesta mesa")


@pytest.mark.parametrize(("args", "scoring"), [
    ("buraco_morto", ["Valor das cartas: 3 a 7 = 5; 8 a K e 2 = 10; Ás = 15",
                      "Canastras: limpa 200 · suja 100", "Morto não pego: −100",
                      "Relancinho (baixar a mão toda de uma vez, sem jogos antes): +100",
                      "Lado com 750 pontos ou mais: a primeira baixada de cada jogador na mão "
                      "precisa de 75 pontos em cartas (90 depois de uma tentativa curta)"]),
    ("buraco jokers=true target=3000 relancinho_bonus=0",
     ["Valor das cartas: 3 a 7 = 5; 8 a K, 2 e curinga = 10; Ás = 15",
      "Canastras: limpa 200 · suja 100",
      "Lado com 1500 pontos ou mais: a primeira baixada de cada jogador na mão precisa de "
      "75 pontos em cartas (90 depois de uma tentativa curta)"]),
    ("justificado", ["Valor das cartas: 3 a 7 = 5; 8 a K e 2 = 10; Ás = 15",
                     "Canastras: limpa 200 · suja 100 · de mil, A–A limpa 1000",
                     "Morto não pego: −100"]),
    ("altaneira", ["Valor das cartas: 10 cada",
                   "Canastras: limpa 200 · suja 100 · Real, A–A limpa em ♥/♦ 1000 · "
                   "Altaneira, A–K limpa 500", "Morto não pego: −100",
                   "Sem canastra, os jogos baixados contam negativo"]),
])
async def test_regras_states_what_scores_a_deal(svc: Service, args: str,
                                                scoring: list[str]) -> None:
    """RULES C14 in /regras (a trial found it silent): card values (§2 "card points",
    A8), canastra bonuses with the variant's special ones (C7, A12, seed 001), the
    untaken morto, relancinho (A21), vulnerability at half the target (A22) and melds
    counted negative without a canastra (seed 000 §9.5), before the going-out lines."""
    lines = only(await svc.rules_text(CHAT, ANA, args), "reply").text.splitlines()
    start = lines.index(scoring[0])
    assert lines[start:start + len(scoring)] == scoring
    assert lines[start + len(scoring)].startswith("Batida: ")


def test_regras_in_english_and_italian_names_the_special_canastras() -> None:
    from bot.i18n import Translator
    from bot.info import rules_summary

    en = rules_summary("justificado", Translator("en")).splitlines()
    assert "Canastas: clean 200 · dirty 100 · de mil (a thousand), clean A–A 1000" in en
    it = rules_summary("altaneira", Translator("it")).splitlines()
    assert ("Burraco: pulito 200 · sporco 100 · Real, A–A pulito in ♥/♦ 1000 · Altaneira, "
            "A–K pulito 500") in it
    assert "Valore delle carte: 10 ciascuna" in it


async def test_regras_with_options_states_the_rules_of_such_a_table(svc: Service) -> None:
    """``/regras buraco jokers=true relancinho_bonus=0``: what /novojogo with the same
    words would play; a bad option is refused as /novojogo refuses it."""
    lines = only(await svc.rules_text(CHAT, ANA, "buraco jokers=true relancinho_bonus=0"),
                 "reply").text.splitlines()
    assert lines[:3] == ["Buraco", "Jogadores: 2, 3, 4, 6", "Meta: 1500 pontos"]
    assert lines[-1] == "Nesta mesa: jokers=true, relancinho_bonus=0"
    refused = only(await svc.rules_text(CHAT, ANA, "tranca jokers=true"), "reply").text
    assert refused == "Jokers só existem na família buraco."
    await svc.set_language(CHAT, ANA, "en")
    lines = only(await svc.rules_text(CHAT, ANA, "tranca target=3000"),
                 "reply").text.splitlines()
    assert (lines[2], lines[-1]) == ("Target: 3000 points", "At this table: target=3000")


async def test_export_without_a_finished_game(svc: Service) -> None:
    assert await svc.export(CHAT, ANA) == [Reply(
        player=ANA, text="Ainda não há partida terminada neste grupo.")]


async def test_a_migrated_chat_keeps_its_game(svc: Service, store: Any) -> None:
    await svc.set_language(CHAT, ANA, "en")
    opened = only(await svc.new_game(CHAT, ANA, ""), "table")
    new = ChatRef(platform="tg", chat_id="-100999", title="Grupo do Buraco")
    moved = await svc.move_chat(CHAT, new)
    assert kinds(moved) == ["table"] and moved[0].chat == new
    assert await store.chat_game(new.key) == opened.game_id
    assert await store.chat_game(CHAT.key) is None
    assert await store.get_setting(new.key, "lang") == "en"
    table = only(await svc.join(new, BIA), "table")
    assert "Seat 2: Bia · side 2" in table.view.lines


def test_fallback_ai_draws_then_discards_the_safe_card() -> None:
    rules = make_rules("buraco")
    state = new_deal(rules, 2)
    state.hands[0] = parse_cards("2c 5d 9d Kh Ah 7s 7s 8s 3c 4c 6c")
    state.melds[1] = []
    assert robot.fallback_move(state, 0) == Action.draw(0)
    state.phase = "play"
    # A♥ is worth the most (15) and is no wild: the safe discard
    assert robot.fallback_move(state, 0) == Action.discard(0, parse_cards("Ah")[0])
    assert robot.ai_move(state, 0, "normal", None) == Action.discard(0, parse_cards("Ah")[0])


async def test_states_are_stored_compressed(svc: Service, store: Any) -> None:
    from bot.model import PACKED_ZSTD, decode, encode

    await svc.new_game(CHAT, ANA, "buraco")
    await svc.join(CHAT, BIA)
    await svc.start(CHAT, ANA)
    gid = await store.chat_game(CHAT.key)
    _v, text = await store.load_game(gid)
    assert text.startswith(PACKED_ZSTD)  # the service's default form (DEFAULT_CODEC)
    game = decode(text)
    plain = encode(game, compress=False)
    # a fresh deal is mostly a shuffled deck, the least compressible state (about 2x;
    # a mid-deal state about 4x, bench/README.md): at least 5/3 here
    assert decode(plain) == game and len(text) * 5 < len(plain) * 3


async def test_a_failing_timer_step_is_retried_and_logs_no_card(
        svc: Service, store: Any, clock: Any, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    from engine.errors import IllegalAction as Refused

    await svc.new_game(CHAT, ANA, "buraco")
    await svc.add_ai(CHAT, ANA, "")
    effects = await svc.start(CHAT, ANA)
    gid = effects[0].game_id
    hand = next(e for e in effects if e.kind == "hand").view
    hand = only(await svc.press(ANA, pack(gid, hand.version, "c")), "hand").view
    await svc.press(ANA, pack(gid, hand.version, "t", 0))
    await svc.press(ANA, pack(gid, hand.version, "d"))  # the AI's turn now

    def broken(*_a: Any) -> Any:
        raise Refused("stuck", "a carta 7♥ não está na mão")

    monkeypatch.setattr(robot, "ai_move", broken)
    version, _g = await game_of(store)
    assert await svc.tick() == []
    assert "game " + gid + ": timer step failed (stuck)" in caplog.text
    assert "7♥" not in caplog.text
    assert (await game_of(store))[0] == version
    assert await store.claim_due(clock.now() + 59) == []
    assert await store.claim_due(clock.now() + 60) == [gid]
