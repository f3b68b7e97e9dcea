"""A queue to find players (issue 35): what ``/procurar`` asks for, the rating band, and
the game a formed table becomes. Pure functions (no I/O); the queue itself is in Redis
(adapters/storage/queue.py, one atomic script per step) and the calls in
:mod:`bot.queue_calls`.

A person waits for a variant and a table size (2 or 4). Tables form from people close in
global rating (bot/season/rating.py, the number shown): two people fit when their ratings
differ by no more than either one's *band*, which starts at :data:`BAND_BASE` and widens by
:data:`BAND_PER_S` a second of waiting, up to :data:`BAND_MAX`. A person may ask for robots
to fill their table after a wait of their choice (``robos=N`` minutes). An entry expires
after :data:`QUEUE_TTL_S` with a message. A formed table starts at once; its places are
each person's private chat on Telegram, the channel they queued in on Discord.
"""

from __future__ import annotations

from typing import Any

from bot import lobby, places, play, variants
from bot.effects import ChatRef, PlayerRef
from bot.i18n import N_
from bot.model import Game, Seat
from bot.outcome import Refusal, echo

QUEUE_TTL_S = 600
"""An entry expires after 10 minutes (the person is told; ``/procurar`` again)."""
BAND_BASE, BAND_PER_S, BAND_MAX = 50.0, 5.0, 2000.0
"""The rating band (in shown points, a new person has 1000): 50 at once, 350 after a
minute, every rating after about six and a half minutes."""
SIZES = (2, 4)
MAX_ROBOT_WAIT_MIN = 10
DEFAULT_PRESET = variants.DEFAULT_PRESET
BAD_SIZE = N_("Mesas de 2 ou de 4: /procurar [variante] [2|4] [robos=minutos].")
BAD_ROBOTS = N_("Robôs depois de quantos minutos? Use robos=1 a robos=10.")
NOT_TAKEN = N_("A fila não usa a opção {key}: a mesa dela segue as regras da variante. Use "
               "/procurar [variante] [2|4] [robos=minutos].")
SIZE_NOT_PLAYED = N_("{name} não se joga com {n} jogadores.")


def parse(args: str) -> tuple[str, int, int]:
    """``"tranca 2 robos=3"`` -> ``("tranca", 2, 180)``: the preset (default
    :data:`DEFAULT_PRESET`), the table size (default 4) and the robots' wait in seconds
    (0: never). :class:`Refusal` for an unknown variant, a size other than 2 or 4 or one
    the variant is not played with, a robots' wait outside 1 to 10 minutes, an option
    given twice (:func:`bot.lobby.no_repeats`, as ``/novojogo`` says it) or one the queue
    does not take (:data:`NOT_TAKEN`: a table option such as ``target=``)."""
    preset, size, robots = DEFAULT_PRESET, 4, 0
    lobby.no_repeats(args)
    for token in args.lower().split():
        key, eq, value = token.partition("=")
        if eq and key not in ("robos", "robôs", "robots", "robot"):
            raise Refusal(NOT_TAKEN, key=echo(key))
        if key in ("robos", "robôs", "robots", "robot"):
            minutes = int(value) if value.isdigit() else 0
            if not 1 <= minutes <= MAX_ROBOT_WAIT_MIN:
                raise Refusal(BAD_ROBOTS)
            robots = minutes * 60
        elif token.isdigit():
            if int(token) not in SIZES:
                raise Refusal(BAD_SIZE)
            size = int(token)
        else:
            preset = play.preset_key(token)
    if size not in lobby.rules_of(preset, {}).players_allowed:
        raise Refusal(SIZE_NOT_PLAYED, name=variants.TITLES.get(preset, preset), n=size)
    return preset, size, robots


def place_of(chat: ChatRef, user: PlayerRef) -> ChatRef:
    """Where a person's matchmade table is shown: their private chat with the bot on
    Telegram (its id is theirs), the chat they queued in elsewhere (Discord writes to no
    one unasked: the table goes to the channel, the hand stays theirs alone)."""
    if user.platform == "tg":
        return ChatRef(platform="tg", chat_id=user.user_id, title="")
    return chat


def band(waited_s: float) -> float:
    """The rating band of a person who has waited ``waited_s`` seconds."""
    return min(BAND_MAX, BAND_BASE + BAND_PER_S * max(0.0, waited_s))


def entry(chat: ChatRef, user: PlayerRef, robots_s: int, now: float) -> dict[str, Any]:
    """What the queue keeps of a person: their identity and name, their place, the chat
    they queued in (told there when their private chat is closed), when robots may fill
    their table (Unix seconds, 0: never)."""
    return {"player": user.model_dump(), "place": place_of(chat, user).model_dump(),
            "queued": chat.model_dump(), "bots_at": now + robots_s if robots_s else 0}


def game_of(table: dict[str, Any], preset: str, now: float, timer_s: int,
            lang: str = "pt") -> Game:
    """The lobby a formed table becomes (:func:`bot.lobby.start` starts it): the first
    person's place is the game's own chat and the others' are its places; robots
    (``normal``) fill the seats nobody took."""
    people = [(PlayerRef.model_validate(p["player"]), ChatRef.model_validate(p["place"]),
               ChatRef.model_validate(p["queued"])) for p in table["people"]]
    (creator, home, asked), rest = people[0], people[1:]
    game = Game(id=table["game"], chat=home, creator=creator, lang=lang, preset=preset,
                timer_s=timer_s, seats=[Seat(player=creator, asked=asked)], created=now,
                touched=now, matched=True)
    for player, place, queued in rest:
        if place.key != home.key:
            places.add_place(game, place)
        game.seats.append(Seat(player=player, asked=queued,
                               where="" if place.key == home.key else place.key))
    for _ in range(int(table["robots"])):
        game.seats.append(Seat(ai="normal", robot=game.next_robot_number()))
    return game
