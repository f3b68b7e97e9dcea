"""Discord adapter parts on their own: the gettext Translator of the slash commands, card
selects pressing only what changed, one final view per press, shard settings, and the
one-line start-up errors (no token, bad token, no Discord, no Redis)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import discord
import pytest
from aiohttp import web
from discord import app_commands
from threaded_app import RoutesApp

from adapters.discord.app import last_views
from adapters.discord.commands import GettextTranslator, install
from adapters.discord.items import CardSelect
from adapters.discord.shards import shard_settings
from bot import __main__ as cli
from bot.effects import ChatRef, HandView, PlayerRef, Reply, TableView, View

CHAT = ChatRef(platform="dc", chat_id="5", title="#mesa")
ANA = PlayerRef(platform="dc", user_id="1", name="Ana")
CONTEXT = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)


@pytest.mark.parametrize(("locale", "text"), [
    (discord.Locale.american_english, "Open a table: /novojogo [variant] [options]"),
    (discord.Locale.british_english, "Open a table: /novojogo [variant] [options]"),
    (discord.Locale.italian, "Apri un tavolo: /novojogo [variante] [opzioni]"),
    (discord.Locale.brazil_portuguese, None),  # the source text itself
    (discord.Locale.japanese, None),
])
async def test_command_descriptions_come_from_the_gettext_catalogs(
        locale: discord.Locale, text: str | None) -> None:
    translator = GettextTranslator()
    got = await translator.translate(
        app_commands.locale_str("Abrir uma mesa: /novojogo [variante] [opções]"), locale,
        CONTEXT)
    assert got == text


def installed_tree() -> app_commands.CommandTree[Any]:
    """A command tree with the bot's slash commands installed over a do-nothing bot."""
    class Bot:
        async def command(self, interaction: Any, name: str, args: str = "",
                          dm: bool = False) -> None:
            return None

    client = discord.Client(intents=discord.Intents.default())
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    install(tree, Bot())
    return tree


async def test_the_commands_have_the_telegram_names_and_choices() -> None:
    tree = installed_tree()
    names = sorted(c.name for c in tree.get_commands())
    assert names == ["ajuda", "bloquear", "cancelar", "config", "convidar", "dica", "entrar",
                     "exportar", "idioma", "iniciar", "mao", "novojogo", "perfil", "placar",
                     "procurar", "ranking", "regras", "replay", "revisao", "robo", "sair",
                     "sairfila", "torneio", "verificar", "voltar"]
    procurar = tree.get_command("procurar")  # issue 35: the queue
    assert isinstance(procurar, app_commands.Command)
    assert [p.name for p in procurar.parameters] == ["variante", "jogadores", "robos"]
    entrar = tree.get_command("entrar")  # issue 35: an invitation's code, optional
    assert isinstance(entrar, app_commands.Command)
    assert [(p.name, p.required) for p in entrar.parameters] == [("codigo", False)]
    verificar = tree.get_command("verificar")  # issue 35: the game's code, optional
    assert isinstance(verificar, app_commands.Command)
    assert [(p.name, p.required) for p in verificar.parameters] == [("jogo", False)]
    ranking = tree.get_command("ranking")  # issue 29: the period as a list
    assert isinstance(ranking, app_commands.Command)
    assert [c.value for c in ranking.parameters[0].choices] == [
        "semana", "mes", "ano", "sempre", "geral"]
    perfil = tree.get_command("perfil")
    assert isinstance(perfil, app_commands.Command)
    assert [p.name for p in perfil.parameters] == ["pessoa", "visibilidade"]
    assert [c.value for c in perfil.parameters[1].choices] == ["publico", "privado"]
    robo = tree.get_command("robo")
    assert isinstance(robo, app_commands.Command)
    assert [c.value for c in robo.parameters[0].choices] == ["facil", "normal", "dificil"]
    novo = tree.get_command("novojogo")
    assert isinstance(novo, app_commands.Command)
    assert "tranca" in [c.value for c in novo.parameters[0].choices]
    await tree.client.close()


async def test_every_option_takes_a_value_outside_its_choices_as_typed_text() -> None:
    """Issue 30: a value a client with an older list of commands sends (``variante:
    xyz``, a number where text was registered) reaches the bot as the text it is, so the
    service answers it as it answers the same words typed, instead of discord.py's
    TransformerError ("Algo deu errado" and a traceback). Every option of every command."""
    calls: list[tuple[str, str, bool]] = []

    class Bot:
        async def command(self, interaction: Any, name: str, args: str = "",
                          dm: bool = False) -> None:
            calls.append((name, args, dm))

    client = discord.Client(intents=discord.Intents.default())
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    install(tree, Bot())
    seen = 0
    for command in tree.get_commands():
        assert isinstance(command, app_commands.Command)
        for param in command._params.values():  # the transform discord.py calls
            seen += 1
            if param.type == discord.AppCommandOptionType.user:
                continue
            for value in ("xyz", 7):
                assert await param.transform(None, value) == value, (command.name, param)
    assert seen == 19  # variante + opcoes, nivel, modo, variante, idioma, periodo,
    # pessoa + visibilidade, ajuste + valor, opcoes of /torneio, codigo of /entrar,
    # retirar of /convidar, jogo of /verificar, variante + jogadores + robos of
    # /procurar, nome of /bloquear (issue 35) (pessoa, a member, is
    # checked by type: an old client's
    # value there is a TransformerError, answered "recarregue o Discord")
    novojogo, robo, mao, regras, idioma, ranking, perfil, config = (
        cast(Any, tree.get_command(n)) for n in (
            "novojogo", "robo", "mao", "regras", "idioma", "ranking", "perfil", "config"))
    await novojogo.callback(None, variante=7, opcoes="target=3000")
    await robo.callback(None, nivel="xyz")
    await mao.callback(None, modo="xyz")
    await mao.callback(None, modo="dm")
    await regras.callback(None, variante="xyz")
    await idioma.callback(None, idioma="xx")
    await ranking.callback(None, periodo="xyz")
    await perfil.callback(None, visibilidade="xyz")
    await config.callback(None, ajuste="xyz", valor="7")
    assert calls[-1] == ("config", "xyz 7", False)
    entrar, convidar = (cast(Any, tree.get_command(n)) for n in ("entrar", "convidar"))
    await entrar.callback(None, codigo=" k7qx3mpa ")
    await entrar.callback(None)
    await convidar.callback(None, retirar="todos")
    await convidar.callback(None)
    assert calls[-4:] == [("entrar", "k7qx3mpa", False), ("entrar", "", False),
                          ("convidar", "retirar todos", False), ("convidar", "", False)]
    del calls[-4:]
    procurar, bloquear = (cast(Any, tree.get_command(n)) for n in ("procurar", "bloquear"))
    await procurar.callback(None, variante="tranca", jogadores="2", robos="3")
    await procurar.callback(None)
    await bloquear.callback(None, nome=" Zé ")
    assert calls[-3:] == [("procurar", "tranca 2 robos=3", False), ("procurar", "", False),
                          ("bloquear", "Zé", False)]
    del calls[-3:]
    torneio = cast(Any, tree.get_command("torneio"))  # issue 29
    await torneio.callback(None, opcoes="mata duplas")
    assert calls[-1] == ("torneio", "mata duplas", False)
    verificar = cast(Any, tree.get_command("verificar"))  # issue 35
    await verificar.callback(None, jogo=7)
    assert calls.pop() == ("verificar", "7", False)
    calls.pop()
    calls.pop()
    assert calls == [("novojogo", "7 target=3000", False), ("robo", "xyz", False),
                     ("mao", "", False), ("mao", "", True), ("regras", "xyz", False),
                     ("idioma", "xx", False), ("ranking", "xyz", False),
                     ("perfil", "xyz", False)]
    await client.close()


async def test_a_card_select_presses_only_the_cards_whose_state_changed() -> None:
    select: discord.ui.Select[Any] = discord.ui.Select(custom_id="bbc:g1|3|0", options=[
        discord.SelectOption(label="A♣", value="g1|3|t|0", default=True),
        discord.SelectOption(label="2♣", value="g1|3|t|1"),
        discord.SelectOption(label="3♣", value="g1|3|t|2", default=True),
        discord.SelectOption(label="4♣", value="g1|3|t|3")])
    item = CardSelect("bbc:g1|3|0", base=select)
    # A♣ stays, 3♣ is unpicked, 2♣ is picked, 4♣ stays out
    assert item.changed(["g1|3|t|0", "g1|3|t|1"]) == ["g1|3|t|1", "g1|3|t|2"]
    assert item.changed(["g1|3|t|0", "g1|3|t|2"]) == []


def test_several_presses_show_each_table_and_hand_once_in_their_last_state() -> None:
    def hand(title: str) -> HandView:
        return HandView(chat=CHAT, game_id="g1", player=ANA, seat=0, view=View(title=title))

    def table(title: str) -> TableView:
        return TableView(chat=CHAT, game_id="g1", view=View(title=title))

    reply = Reply(player=ANA, text="ok")
    effects = [hand("h1"), table("t1"), reply, hand("h2"), table("t2")]
    assert last_views(effects) == [reply, hand("h2"), table("t2")]
    # issue 35: the same game's table in another place is kept, once
    there = ChatRef(platform="tg", chat_id="-100", title="Grupo")
    elsewhere = [table("t1"), table("t1").model_copy(update={"chat": there, "home": False}),
                 table("t2"), table("t2").model_copy(update={"chat": there, "home": False})]
    assert last_views(elsewhere) == elsewhere[2:]


def test_shard_settings() -> None:
    assert shard_settings(None, None) == (None, None)
    assert shard_settings(4, "2,3") == (4, [2, 3])
    with pytest.raises(ValueError, match="DISCORD_SHARD_IDS"):
        shard_settings(2, "2")
    with pytest.raises(ValueError, match="DISCORD_SHARD_IDS"):
        shard_settings(None, "0")
    assert shard_settings("2", "1") == (2, [1])
    for count, ids in (("0", None), ("²", None), ("2", "٣"), ("2", "1;0")):
        with pytest.raises(ValueError, match=r"^DISCORD_SHARD_(COUNT|IDS) inválido"):
            shard_settings(count, ids)


@pytest.fixture
def _no_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.chdir(tmp_path)  # no .env file
    for name in ("REDIS_URL", "TELEGRAM_TOKEN", "DISCORD_TOKEN", "DISCORD_API_BASE",
                 "DISCORD_SHARD_COUNT", "DISCORD_SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def refusing_discord() -> Iterator[str]:
    """A REST root answering 401 to the login, as Discord does for a bad token."""

    async def login(request: web.Request) -> web.Response:
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    server = RoutesApp("the refusing Discord", [web.get("/api/v10/users/@me", login)])
    yield f"{server.url}/api/v10"
    server.close()


@pytest.mark.usefixtures("_no_env")
def test_a_bad_token_ends_with_one_line(refusing_discord: str, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A token Discord refuses is a bad setting: exit 2."""
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    monkeypatch.setenv("DISCORD_API_BASE", refusing_discord)
    assert cli.main(["discord"]) == 2
    err = capsys.readouterr().err
    assert err == ("DISCORD_TOKEN recusado pelo Discord: confira o token da página \"Bot\" do "
                   "Developer Portal\n")


@pytest.mark.usefixtures("_no_env")
@pytest.mark.parametrize(("env", "line", "code"), [
    ({"DISCORD_API_BASE": "http://127.0.0.1:1/api/v10"}, "Sem conexão com o Discord: ", 1),
    ({"REDIS_URL": "redis://127.0.0.1:1/0"}, "Redis não responde (REDIS_URL): ", 1),
    ({"DISCORD_SHARD_IDS": "0"}, "DISCORD_SHARD_IDS precisa de DISCORD_SHARD_COUNT", 2),
    ({"DISCORD_SHARD_IDS": "x", "DISCORD_SHARD_COUNT": "2"},
     "DISCORD_SHARD_IDS inválido ('x'): use números separados por vírgula, ex.: 0,1", 2),
    ({"DISCORD_SHARD_COUNT": "abc"},
     "DISCORD_SHARD_COUNT inválido ('abc'): use um número inteiro a partir de 1", 2),
])
def test_setup_mistakes_end_with_one_line(env: dict[str, str], line: str, code: int,
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A bad setting exits 2, Discord or Redis not answering 1 (docs/operator.md)."""
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert cli.main(["discord"]) == code
    err = capsys.readouterr().err
    assert err.startswith(line) and err.count("\n") == 1, err


@pytest.mark.usefixtures("_no_env")
@pytest.mark.parametrize(("lang", "token_line", "shard_line"), [
    ("C", "DISCORD_TOKEN não definido: crie um bot em "
     "https://discord.com/developers/applications (README)",
     "DISCORD_SHARD_COUNT inválido ('abc'): use um número inteiro a partir de 1"),
    ("en_US.UTF-8", "DISCORD_TOKEN is not set: create a bot at "
     "https://discord.com/developers/applications (README)",
     "Invalid DISCORD_SHARD_COUNT ('abc'): use a whole number from 1"),
    ("it_IT.UTF-8", "DISCORD_TOKEN non impostato: crea un bot su "
     "https://discord.com/developers/applications (README)",
     "DISCORD_SHARD_COUNT non valido ('abc'): usa un numero intero da 1 in su"),
])
def test_start_up_errors_speak_the_locale(lang: str, token_line: str, shard_line: str,
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", lang)
    assert cli.main(["discord"]) == 2
    assert capsys.readouterr().err == token_line + "\n"
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "abc")
    assert cli.main(["discord"]) == 2
    assert capsys.readouterr().err == shard_line + "\n"


@pytest.mark.usefixtures("_no_env")
@pytest.mark.parametrize("command", ["discord", "serve"])
def test_no_token_ends_with_one_line(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([command]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and err.count("\n") == 1, err


async def test_the_synced_payload_carries_the_english_and_italian_descriptions() -> None:
    tree = installed_tree()
    robo = tree.get_command("robo")
    assert isinstance(robo, app_commands.Command)
    payload = await robo.get_translated_payload(tree, GettextTranslator())
    assert payload["description"] == "Pôr um robô na mesa: /robo [facil|normal|dificil]"
    assert payload["description_localizations"] == {
        "en-US": "Add a bot player: /robo [facil|normal|dificil]",
        "en-GB": "Add a bot player: /robo [facil|normal|dificil]",
        "it": "Aggiungi un robot: /robo [facil|normal|dificil]"}
    assert payload["options"][0]["description_localizations"]["it"] == "Livello del robot"
    await tree.client.close()


@pytest.mark.usefixtures("_no_env")
@pytest.mark.parametrize(("lang", "guild", "line"), [
    ("C", "7", "2 comandos de barra registrados (servidor 7): novojogo, placar"),
    ("en_US.UTF-8", None, "2 slash commands synced (global): novojogo, placar"),
    ("it_IT.UTF-8", "7", "2 comandi slash registrati (server 7): novojogo, placar"),
])
def test_sync_says_what_it_registered_in_the_locale(
        lang: str, guild: str | None, line: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    async def synced(_settings: Any, _guild: int | None) -> list[str]:
        return ["novojogo", "placar"]

    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", lang)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setattr("adapters.discord.process.sync", synced)
    assert cli.main(["discord", "--sync", *(["--guild", guild] if guild else [])]) == 0
    assert capsys.readouterr().out == line + "\n"
