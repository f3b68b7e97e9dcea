"""``python -m bot``: argument checks, the seat count refused before any AI seat, one
clear line for ordinary setup mistakes (exit 2 for a bad setting, 1 for what lies outside
the settings), Ctrl-C at the prompt (asks, as q; exit 0)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from typing import Any

import pytest
import redis.exceptions
import telegram.error

from adapters import logsafe
from bot import __main__ as cli
from bot import startup


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> Iterator[None]:
    monkeypatch.chdir(tmp_path)  # no .env file
    for name in ("REDIS_URL", "TELEGRAM_TOKEN", "TELEGRAM_BASE_URL", "WEBHOOK_URL", "LANGUAGE",
                 "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    yield
    logsafe.uninstall()  # main() installs the log filter for the whole process


@pytest.mark.parametrize("argv", [["play", "--variant", ""], ["play", "--variant", "  "],
                                  ["play", "--pause", "-1"], ["play", "--pause", "61"],
                                  ["play", "--pause", "x"], ["play", "--robos", "expert"],
                                  ["play", "--robos", ""], ["play", "--robos", "facil,,dificil"]])
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err.splitlines()[-1]
    assert err in ("python -m bot play: erro: argumento --variant: diga a variante, ex.: "
                   "--variant tranca",
                   "python -m bot play: erro: argumento --pause: use de 0 a 60 segundos",
                   "python -m bot play: erro: argumento --pause: número de segundos "
                   "inválido: 'x'",
                   "python -m bot play: erro: argumento --robos/--robots: nível inválido: "
                   "'expert' (use facil, normal ou dificil, ex.: --robos dificil ou --robos "
                   "facil,dificil)",
                   "python -m bot play: erro: argumento --robos/--robots: nível inválido: "
                   "'' (use facil, normal ou dificil, ex.: --robos dificil ou --robos "
                   "facil,dificil)",
                   "python -m bot play: erro: argumento --robos/--robots: nível inválido: "
                   "'facil,,dificil' (use facil, normal ou dificil, ex.: --robos dificil ou "
                   "--robos facil,dificil)")


@pytest.mark.parametrize(("argv", "line"), [
    (["play", "--idioma", "x" * 5000], "python -m bot play: erro: argumento "
     "--idioma/--language: idioma inválido: '" + "x" * 24 + "…' (use pt, en ou it)"),
    (["play", "--robos", "y" * 5000], "python -m bot play: erro: argumento --robos/--robots: "
     "nível inválido: '" + "y" * 24 + "…' (use facil, normal ou dificil, ex.: --robos "
     "dificil ou --robos facil,dificil)"),
    (["play", "--pause", "9" * 5000 + "z"], "python -m bot play: erro: argumento --pause: "
     "número de segundos inválido: '" + "9" * 24 + "…'"),
    (["play", "--players", "9" * 5000], "python -m bot play: erro: argumento --players: "
     "número de jogadores inválido: '" + "9" * 24 + "…'"),
    (["play", "--players", "dois"], "python -m bot play: erro: argumento --players: "
     "número de jogadores inválido: 'dois'"),
])
def test_a_long_bad_argument_is_repeated_cut_to_24_characters(
        argv: list[str], line: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == line


def test_a_long_bad_setting_is_repeated_cut_to_24_characters(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LOG_LEVEL", "v" * 5000)
    assert cli.main(["play"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "LOG_LEVEL inválido ('" + "V" * 24 + "…'): use DEBUG, INFO, WARNING, ERROR ou "
        "CRITICAL."]


@pytest.mark.parametrize(("variant", "players", "allowed"), [
    ("buraco", "7", "2, 3, 4 ou 6"), ("buraco", "1000", "2, 3, 4 ou 6"),
    ("buraco", "100000000000000000000", "2, 3, 4 ou 6"), ("buraco", "0", "2, 3, 4 ou 6"),
    ("tranca", "6", "2 ou 4"), ("altaneira", "6", "4")])
def test_a_seat_count_the_variant_refuses_exits_2_with_one_line(
        variant: str, players: str, allowed: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--variant", variant, "--players", players]) == 2
    assert capsys.readouterr().out == (
        f"Esta variante joga com {allowed} jogadores; a mesa tem {players}.\n")


def test_ctrl_c_at_the_prompt_asks_like_q_and_a_second_one_quits_with_exit_0(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(_prompt: str = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    assert cli.main(["play", "--players", "2", "--pause", "0"]) == 0
    out = capsys.readouterr().out
    assert "Partida: Você × Robô 2\nTotal: 0 × 0\nRanking:\n" in out  # the score, as q
    assert out.endswith("\nAté a próxima!\n") and out.count("Até a próxima!") == 1


def test_ctrl_c_while_the_robots_play_shows_the_score_and_asks_like_at_the_prompt(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from bot.service import Service

    real_tick, robot_moves, prompts = Service.tick, [0], []

    async def tick(self: Service, *args: Any, **kw: Any) -> Any:
        effects = await real_tick(self, *args, **kw)
        if effects and robot_moves[0] < 2:  # Ctrl-C during the first two robot moves
            robot_moves[0] += 1
            signal.raise_signal(signal.SIGINT)
        return effects

    def answer(prompt: str = "") -> str:
        prompts.append(prompt)
        if prompt.startswith("Sair da partida?"):
            if prompts.count(prompt) == 1:
                return "n"  # the game goes on: the robots play again
            raise KeyboardInterrupt  # a second Ctrl-C at the question quits
        return "c" if prompts.count(prompt) % 2 else "d 1"  # the person's turns

    monkeypatch.setattr(Service, "tick", tick)
    monkeypatch.setattr("builtins.input", answer)
    assert cli.main(["play", "--players", "2", "--pause", "0.05"]) == 0
    out = capsys.readouterr().out
    assert robot_moves == [2] and prompts.count("Sair da partida? (s/n) ") == 2
    assert out.count("Partida: Você × Robô 2\nTotal: 0 × 0\nRanking:\n") == 2  # as q
    assert out.count("A partida continua.") == 1
    assert out.endswith("\nAté a próxima!\n") and out.count("Até a próxima!") == 1


def test_ctrl_c_where_the_loop_takes_no_signals_quits_cleanly_with_exit_0(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    async def interrupted(_self: object) -> None:  # Windows: Ctrl-C raises anywhere
        raise KeyboardInterrupt

    monkeypatch.setattr("adapters.console.app.ConsoleGame.run_ai", interrupted)
    assert cli.main(["play", "--players", "2", "--pause", "0"]) == 0
    assert capsys.readouterr().out.endswith("\nAté a próxima!\n")


@pytest.mark.parametrize(("command", "env", "line", "code"), [
    ("play", {"REDIS_URL": "redis://127.0.0.1:1/0"}, "Redis não responde (REDIS_URL): ", 1),
    ("telegram", {"TELEGRAM_TOKEN": "123:ABC", "REDIS_URL": "redis://127.0.0.1:1/0"},
     "Redis não responde (REDIS_URL): ", 1),
    ("telegram", {"TELEGRAM_TOKEN": "123:ABC", "REDIS_URL": "notaurl"},
     "REDIS_URL inválida: use redis://, rediss:// ou unix:// (ex.: redis://localhost:6379/0)",
     2),
    ("telegram", {"TELEGRAM_TOKEN": "garbage", "TELEGRAM_BASE_URL": "http://127.0.0.1:1/bot"},
     "Sem conexão com o Telegram: ", 1),
])
def test_setup_mistakes_print_one_line_exit_2_for_a_setting_1_for_the_rest(
        command: str, env: dict[str, str], line: str, code: int,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert cli.main([command]) == code
    err = capsys.readouterr().err
    assert err.startswith(line) and err.count("\n") == 1, err
    assert "Traceback" not in err


def test_setup_error_lines() -> None:
    assert startup.setup_error(telegram.error.InvalidToken()) == (
        "TELEGRAM_TOKEN recusado pelo Telegram: confira o token que o @BotFather deu")
    assert startup.setup_error(telegram.error.NetworkError("down")) == (
        "Sem conexão com o Telegram: down")
    assert startup.setup_error(redis.exceptions.ResponseError("DB index is out of range")) == (
        "Redis recusou a conexão (REDIS_URL): DB index is out of range")
    assert startup.setup_error(ValueError("other")) is None
    assert startup.setup_error(KeyError("x")) is None


@pytest.mark.parametrize(("lang", "telegram_line", "redis_line"), [
    (None, "TELEGRAM_TOKEN não definido: peça um token ao @BotFather e rode "
     "TELEGRAM_TOKEN=<token> python -m bot telegram",
     "REDIS_URL inválida: use redis://, rediss:// ou unix:// (ex.: redis://localhost:6379/0)"),
    ("C.UTF-8", "TELEGRAM_TOKEN não definido: peça um token ao @BotFather e rode "
     "TELEGRAM_TOKEN=<token> python -m bot telegram",
     "REDIS_URL inválida: use redis://, rediss:// ou unix:// (ex.: redis://localhost:6379/0)"),
    ("en_US.UTF-8", "TELEGRAM_TOKEN is not set: get a token from @BotFather and run "
     "TELEGRAM_TOKEN=<token> python -m bot telegram",
     "Invalid REDIS_URL: use redis://, rediss:// or unix:// (e.g. redis://localhost:6379/0)"),
    ("it_IT.UTF-8", "TELEGRAM_TOKEN non impostato: chiedi un token a @BotFather ed esegui "
     "TELEGRAM_TOKEN=<token> python -m bot telegram",
     "REDIS_URL non valida: usa redis://, rediss:// o unix:// (es.: redis://localhost:6379/0)"),
])
def test_start_up_errors_speak_the_locale(lang: str | None, telegram_line: str,
                                          redis_line: str, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    if lang:
        monkeypatch.setenv("LANG", lang)
    assert cli.main(["telegram"]) == 2
    assert capsys.readouterr().err == telegram_line + "\n"
    monkeypatch.setenv("TELEGRAM_TOKEN", "123:ABC")
    monkeypatch.setenv("REDIS_URL", "notaurl")
    assert cli.main(["telegram"]) == 2
    assert capsys.readouterr().err == redis_line + "\n"


def test_a_group_table_option_in_the_terminal_exits_2_with_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The terminal has no turn timer and one person (no teams to draw): ``timer``/``tempo``
    and ``shuffle``/``sortear`` would be silently ignored, so they are refused by name, as
    its ``regras`` does not offer them (a trial: "--variant 'buraco timer=20'" started)."""
    assert cli.main(["play", "--variant", "buraco TEMPO=20 target=3000 shuffle=true"]) == 2
    assert capsys.readouterr().out == (
        "Opção só de mesa de grupo, sem efeito no terminal: shuffle, tempo.\n")
