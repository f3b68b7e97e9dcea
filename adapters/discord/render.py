"""Render the service's platform-neutral views as Discord messages: an embed and at most
five rows of components (pure data here; :mod:`adapters.discord.items` builds the
discord.py objects).

Limits (Discord API): 5 action rows; 5 buttons a row; one select fills a row and holds
25 options; custom_id at most 100 characters; embed description 4096 characters,
button label 80, option label 100.

- Table: title, the lines, the service's buttons (``bb:<payload>``).
- Hand: the cards as multi-choice selects (``bbc:<game>|<version>|<n>``, each option's
  value is that card's button payload, shown selected as its default), then the actions
  valid now as buttons; when they do not fit, the overflow goes into one select of
  actions (``bba:<game>|<version>``). More than 75 cards (three selects) are paged: a
  page button (``bbp:<game>|<version>|<page>``) shows the next cards. No card is ever
  dropped, and no hidden card is in a custom_id (cards are hand indices).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from discord.utils import escape_markdown, escape_mentions

from adapters.delivery.text import redden
from bot.effects import Button, CardFace, View, unpack
from bot.hands import DRAWN_MARK
from bot.i18n import N_, Translator

MAX_ROWS = 5
PER_ROW = 5
PER_SELECT = 25
MAX_DESCRIPTION = 4096
MAX_CONTENT = 2000
DANGER = {"x", "lv"}
SUCCESS = {"j", "s", "n"}
PRIMARY = {"h"}


@dataclass(frozen=True)
class Btn:
    """A button: ``label``, ``custom_id`` and style name (``primary``, ``secondary``,
    ``success``, ``danger``)."""

    label: str
    custom_id: str
    style: str = "secondary"
    url: str = ""
    """A link button's address (then ``custom_id`` is unused)."""


@dataclass(frozen=True)
class Opt:
    """A select option: ``label``, ``value`` (a service payload), shown ``default``."""

    label: str
    value: str
    default: bool = False


@dataclass(frozen=True)
class Menu:
    """A select filling one row; ``max_values`` > 1 lets the person pick several."""

    custom_id: str
    placeholder: str
    options: list[Opt]
    max_values: int = 1


Row = list[Btn] | Menu


@dataclass
class Message:
    """One Discord message: embed ``title`` and ``description``, component ``rows``."""

    title: str
    description: str
    rows: list[Row] = field(default_factory=list)


def plain(text: str) -> str:
    """A service text as Discord must show it, literally: markdown escaped and mentions
    broken (``discord.utils``), so a name such as ``**Bia**``, ``Dé ||x||``,
    ``@everyone`` or ``<@id>`` reads as typed, never as formatting or as someone else's
    mention (a trial; Telegram escapes the same texts as HTML); red suits as
    :func:`redden`. For embeds and message content; labels show no markdown."""
    return redden(escape_mentions(escape_markdown(text)))


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def style_of(data: str) -> str:
    """The button style for a payload's action code."""
    parts = unpack(data)
    code = parts[2] if parts else ""
    if code in DANGER:
        return "danger"
    if code in SUCCESS:
        return "success"
    return "primary" if code in PRIMARY else "secondary"


def button(b: Button) -> Btn:
    """A service button as a Discord button (``bb:<payload>``)."""
    return Btn(clip(redden(b.label), 80), f"bb:{b.data}", style_of(b.data))


def table_message(view: View) -> Message:
    """The table (lobby, game, result) as an embed with the service's buttons."""
    rows: list[Row] = []
    for row in view.buttons:
        for start in range(0, len(row), PER_ROW):
            rows.append([button(b) for b in row[start:start + PER_ROW]])
    return Message(clip(plain(view.title), 256),
                   clip(plain("\n".join(view.lines)), MAX_DESCRIPTION), rows[:MAX_ROWS])


def text_message(text: str) -> str:
    """A plain service text as message content (2000 characters at most)."""
    return clip(plain(text), MAX_CONTENT)


def _face(face: CardFace) -> str:
    text = (DRAWN_MARK if face.drawn else "") + plain(face.text)
    if face.group:
        return f"{face.group}:{text}"
    return f"**[{text}]**" if face.selected else text


def _option(face: CardFace) -> str:
    """A card's label in the hand's select: ``"2:7♦"`` in group 2, ``"•7♦"`` when drawn
    from the stock this turn (bot.hands.DRAWN_MARK, as the embed and Telegram show it)."""
    text = (DRAWN_MARK if face.drawn else "") + face.text
    return clip(redden(f"{face.group}:{text}" if face.group else text), 100)


def hand_message(view: View, game_id: str, _: Translator, page: int = 0,
                 link: tuple[str, str] | None = None) -> Message:
    """The hand: cards line and the view's lines, card selects and the actions valid now;
    ``link`` ``(label, url)`` a link button first among the actions (the web table);
    a "url" ``bbw:<game>`` makes it the button that launches the Activity instead.

    ``page`` (0-based) picks which 75 cards the selects offer when there are more.
    Every card and every action of ``view`` is reachable: nothing is dropped."""
    flat = [b for row in view.buttons for b in row]
    # the card buttons come first (bot.hands.hand_view); a view without them shows the
    # cards as text only
    faces = view.cards if len(flat) >= len(view.cards) else []
    cards, actions = flat[:len(faces)], flat[len(faces):]
    ver = view.version
    card_rows = min(math.ceil(len(faces) / PER_SELECT), MAX_ROWS - 2)
    per_page = card_rows * PER_SELECT
    pages = math.ceil(len(faces) / per_page) if per_page else 1
    page = page % pages if pages else 0
    extra = [Btn(_(N_("Cartas {a}–{b}"), a=((page + 1) % pages) * per_page + 1,
                   b=min(len(faces), ((page + 1) % pages + 1) * per_page)),
                 f"bbp:{game_id}|{ver}|{(page + 1) % pages}")] if pages > 1 else []
    rows: list[Row] = []
    shown = list(zip(faces, cards, strict=True))[page * per_page:(page + 1) * per_page]
    for k in range(0, len(shown), PER_SELECT):
        chunk = shown[k:k + PER_SELECT]
        first = page * per_page + k + 1
        rows.append(Menu(f"bbc:{game_id}|{ver}|{page * card_rows + k // PER_SELECT}",
                         _(N_("Cartas {a}–{b}: escolha"), a=first, b=first + len(chunk) - 1),
                         [Opt(_option(f), b.data, f.selected) for f, b in chunk],
                         max_values=len(chunk)))
    web = ([Btn(link[0], link[1], "primary")] if link[1].startswith("bbw:") else
           [Btn(link[0], "", "link", url=link[1])]) if link else []
    rows += _action_rows(web + extra + [button(b) for b in actions], MAX_ROWS - len(rows),
                         ver, game_id, _)
    description = " ".join(_face(f) for f in view.cards)
    description = "\n".join([description, "", *(plain(line) for line in view.lines)])
    return Message(clip(plain(view.title), 256), clip(description, MAX_DESCRIPTION), rows)


def _action_rows(buttons: list[Btn], room: int, ver: int, game_id: str,
                 _: Translator) -> list[Row]:
    """Buttons in rows of five within ``room`` rows; the overflow in one action select."""
    if room <= 0:
        return []
    if len(buttons) <= room * PER_ROW:
        return [buttons[i:i + PER_ROW] for i in range(0, len(buttons), PER_ROW)]
    keep = (room - 1) * PER_ROW
    rows: list[Row] = [buttons[i:i + PER_ROW] for i in range(0, keep, PER_ROW)]
    rest = buttons[keep:keep + PER_SELECT]
    rows.append(Menu(f"bba:{game_id}|{ver}", _(N_("Mais ações…")),
                     [Opt(b.label, b.custom_id[3:]) for b in rest]))
    return rows
