"""The Redis settings of issue 28: REDIS_MODE single / cluster / sentinel, the sentinels'
addresses, the timer sets; a bad or unreachable one stops the start with one line naming
it."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from adapters.storage.connect import RedisTarget, StoreUnreachable, open_store
from bot import __main__ as cli
from bot import startup
from bot.i18n import Translator
from bot.settings import Settings, sentinel_addresses, settings_error

NAMES = ("REDIS_URL", "REDIS_MODE", "REDIS_SENTINELS", "REDIS_SENTINEL_MASTER",
         "REDIS_PASSWORD", "REDIS_DB", "REDIS_TIMER_SETS", "REDIS_SENTINEL_PASSWORD")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)


def refusal(monkeypatch: pytest.MonkeyPatch, lang: str = "pt", **env: str) -> str:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError) as err:
        Settings(_env_file=None)  # type: ignore[call-arg]
    return settings_error(err.value, Translator(lang))


def test_nothing_set_is_the_embedded_store_in_single_mode() -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    target = RedisTarget.of(settings)
    assert (target.url, target.mode, target.sentinels, target.timer_sets) == (
        None, "single", [], 1)


def test_sentinel_settings_give_the_sentinels_master_and_credentials(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_MODE", "Sentinel")
    monkeypatch.setenv("REDIS_SENTINELS", "10.0.0.1:26379, s2.example:26380,[::1]:26381")
    monkeypatch.setenv("REDIS_SENTINEL_MASTER", " mymaster ")
    monkeypatch.setenv("REDIS_DB", "3")
    monkeypatch.setenv("REDIS_TIMER_SETS", "16")
    target = RedisTarget.of(Settings(_env_file=None))  # type: ignore[call-arg]
    assert target.mode == "sentinel" and target.master == "mymaster"
    assert target.sentinels == [("10.0.0.1", 26379), ("s2.example", 26380), ("::1", 26381)]
    assert (target.db, target.timer_sets) == (3, 16)
    assert target.setting() == "REDIS_SENTINELS/REDIS_SENTINEL_MASTER"


def test_cluster_without_a_node_url_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    assert refusal(monkeypatch, REDIS_MODE="cluster") == (
        "REDIS_MODE inválido ('cluster'): com cluster, defina REDIS_URL com o endereço de "
        "um nó (ex.: redis://10.0.0.1:6379).")


def test_an_unknown_mode_lists_the_three(monkeypatch: pytest.MonkeyPatch) -> None:
    assert refusal(monkeypatch, REDIS_MODE="replica") == (
        "REDIS_MODE inválido ('replica'): use single / cluster / sentinel.")


def test_sentinel_mode_needs_the_sentinels_and_the_master_name(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert refusal(monkeypatch, REDIS_MODE="sentinel") == (
        "REDIS_SENTINELS inválido: com REDIS_MODE=sentinel, use host:porta,host:porta "
        "(ex.: 10.0.0.1:26379,10.0.0.2:26379). REDIS_SENTINEL_MASTER inválido: com "
        "REDIS_MODE=sentinel, diga o nome do primário que os sentinelas vigiam "
        "(ex.: mymaster).")


@pytest.mark.parametrize("value", ["h1", "h1:0", "h1:26379,", ":26379", "h1:70000", "h1:port"])
def test_a_sentinel_address_without_a_host_and_port_is_refused(
        value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    line = refusal(monkeypatch, lang="en", REDIS_MODE="sentinel", REDIS_SENTINELS=value,
                   REDIS_SENTINEL_MASTER="mymaster")
    assert line == (f"invalid REDIS_SENTINELS ({value!r}): use host:port,host:port "
                    "(e.g. 10.0.0.1:26379,10.0.0.2:26379).")


def test_sentinels_without_sentinel_mode_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    assert refusal(monkeypatch, REDIS_SENTINELS="h1:26379") == (
        "REDIS_SENTINELS inválido ('h1:26379'): vale só com REDIS_MODE=sentinel.")


@pytest.mark.parametrize("value", ["0", "1025", "many"])
def test_timer_sets_are_1_to_1024(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    line = refusal(monkeypatch, REDIS_TIMER_SETS=value)
    assert line.startswith(f"REDIS_TIMER_SETS inválido ('{value}'): use um número inteiro")


def test_sentinel_addresses_parse_hosts_and_ports() -> None:
    assert sentinel_addresses("a:1,b:65535") == [("a", 1), ("b", 65535)]
    with pytest.raises(ValueError):
        sentinel_addresses("a:1,,b:2")


async def test_an_unreachable_cluster_names_redis_url() -> None:
    with pytest.raises(StoreUnreachable) as err:
        await open_store(None, "t", RedisTarget(url="redis://127.0.0.1:1", mode="cluster"))
    assert err.value.setting == "REDIS_URL"


async def test_unreachable_sentinels_name_the_sentinel_settings() -> None:
    target = RedisTarget(mode="sentinel", sentinels=[("127.0.0.1", 1)], master="mymaster")
    with pytest.raises(StoreUnreachable) as err:
        await open_store(None, "t", target)
    assert err.value.setting == "REDIS_SENTINELS/REDIS_SENTINEL_MASTER"
    assert startup.setup_error(err.value) == (
        f"Redis não responde (REDIS_SENTINELS/REDIS_SENTINEL_MASTER): {err.value}")


def test_a_bad_redis_setting_stops_the_start_with_one_line_and_exit_2(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("REDIS_MODE", "sentinel")
    monkeypatch.setenv("REDIS_SENTINELS", "h1")
    monkeypatch.setenv("REDIS_SENTINEL_MASTER", "m")
    assert cli.main(["play"]) == 2
    assert capsys.readouterr().err == (
        "REDIS_SENTINELS inválido ('h1'): use host:porta,host:porta "
        "(ex.: 10.0.0.1:26379,10.0.0.2:26379).\n")
