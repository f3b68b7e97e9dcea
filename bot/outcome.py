"""What a use case returns to the service, and how it refuses.

Use cases are plain functions over a loaded :class:`bot.model.Game`; they either raise
:class:`Refusal` (nothing changes, the person is told why) or return an
:class:`Outcome`. The service saves the game (compare-and-set), then performs the
store follow-ups the outcome asks for and returns its effects.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.effects import Effect
from bot.i18n import N_

log = logging.getLogger(__name__)

MAX_ECHO = 24
"""Characters of a person's own text a refusal repeats (an unknown variant or option
name, a token it did not understand); the rest is cut to "…"."""
TYPED_ECHO = 12
"""The shorter cut of a typed word shown back (a terminal command, a language code)."""


def echo(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` as a refusal repeats it: each character that is not printable shown as
    ``"?"``, cut to ``limit`` characters + ``"…"`` (a 100,000-character option name is no
    message)."""
    # each invisible character as "?", so "\x00c" is no "c" and "\x7f" no "" (trials)
    shown = "".join(ch if ch.isprintable() else "?" for ch in text)
    return shown if len(shown) <= limit else shown[:limit] + "…"


class Phrase(str):
    """A parameter of a :class:`Refusal` that is itself a pt-BR msgid, translated with
    the message (e.g. an option's name in the players' words)."""

    __slots__ = ()


class Reason:
    """A parameter of a :class:`Refusal` that is itself a message with parameters
    (``msgid`` translated, then formatted with ``kw``, :class:`Phrase` ones translated):
    the engine's reason inside "{cards}: {reason}"."""

    __slots__ = ("kw", "msgid")

    def __init__(self, msgid: str, **kw: Any) -> None:
        self.msgid = msgid
        self.kw = kw


class Refusal(Exception):
    """A refused request: ``msgid`` is the pt-BR message id, ``kw`` its parameters;
    ``raw`` is an already-written text (the engine's pt-BR reason). ``also``: effects
    that go before the answer, built from the unchanged game once the refusal stands
    (the current hand for a press on an outdated one)."""

    def __init__(self, msgid: str, raw: str | None = None, *,
                 also: Callable[[], list[Effect]] | None = None, **kw: Any) -> None:
        super().__init__(raw or msgid)
        self.msgid = msgid
        self.raw = raw
        self.also = also
        self.kw = kw

    def render(self, translate: Callable[..., str]) -> str:
        """The text for the person: ``raw``, or ``msgid`` translated with ``translate``,
        as a sentence: a capital first letter and a final period (engine reasons are
        written in lowercase, without one). :class:`Phrase` parameters are translated,
        :class:`Choices` ones listed with the language's "or"."""
        kw = {k: _param(v, translate) for k, v in self.kw.items()}
        text = (self.raw or translate(self.msgid, **kw)).rstrip()
        if text and text[-1] not in ".!?…":
            text += "."
        return text[:1].upper() + text[1:]


class Choices(tuple[str, ...]):
    """A parameter of a :class:`Refusal` listing alternatives: ``("2", "3", "4", "6")``
    reads ``"2, 3, 4 ou 6"`` (en ``"2, 3, 4 or 6"``, it ``"2, 3, 4 o 6"``)."""

    __slots__ = ()

    def render(self, translate: Callable[..., str]) -> str:
        """The alternatives joined in the language of ``translate``."""
        if len(self) < 2:
            return "".join(self)
        return str(translate(N_("{items} ou {last}"), items=", ".join(self[:-1]),
                             last=self[-1]))


class Phrases(tuple[str, ...]):
    """A parameter of a :class:`Refusal` listing pt-BR msgids, each translated, joined
    with commas (e.g. the options a table takes, in the players' words)."""

    __slots__ = ()

    def render(self, translate: Callable[..., str]) -> str:
        """The items translated with ``translate`` and joined with ``", "``."""
        return ", ".join(translate(item) for item in self)


def _param(value: Any, translate: Callable[..., str]) -> Any:
    if isinstance(value, Phrase):
        return translate(value)
    if isinstance(value, Phrases):
        return value.render(translate)
    if isinstance(value, Reason):
        kw = {k: _param(v, translate) for k, v in value.kw.items()}
        return translate(value.msgid, **kw) if kw else translate(value.msgid)
    if isinstance(value, Choices):
        return value.render(translate)
    return value


@dataclass
class Outcome:
    """Effects of a use case plus what the service must do after saving.

    ``changed`` False means nothing to save. ``finished`` asks for the record, the
    ranking entries and unbinding the chat; ``closed`` for unbinding without results;
    ``delete`` removes the game key too (a lobby cancelled before it started).
    """

    effects: list[Effect] = field(default_factory=list)
    changed: bool = True
    finished: bool = False
    closed: bool = False
    delete: bool = False
    keep_deals: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """Finished deals leaving the stored match: the service adds them to the record
    key before it saves the game (``engine.Match.archive_finished``)."""
    render: Callable[[], list[Effect]] | None = None
    """Effects that follow ``effects``, built from the game as the use case left it
    (the table and hand views): the runner builds them while the save's round trip is
    in flight instead of before it (issue 13), so nothing may change the game between
    the use case's return and this call; :meth:`resolved` builds them at once."""

    def resolved(self) -> list[Effect]:
        """``effects`` followed by what ``render`` builds now (a caller that goes on
        changing the game, such as a timer playing several moves, resolves each step
        before the next)."""
        return self.effects + self.render() if self.render is not None else self.effects

    def resolved_or_logged(self, gid: str) -> list[Effect]:
        """:meth:`resolved`; when building the views fails, ``effects`` alone, the
        failure logged by kind and place (never its values) for game ``gid``
        (bot.runner's ``_save_rendering``)."""
        try:
            return self.resolved()
        except Exception as err:
            where = traceback.extract_tb(err.__traceback__)[-1]
            log.error("game %s: views failed (%s at %s:%d in %s)", gid, type(err).__name__,
                      Path(where.filename).name, where.lineno or 0, where.name)
            return self.effects
