"""The invitation calls of the service (issue 35, :mod:`bot.invites`): ``/convidar``,
``/convidar retirar [código]`` and ``/entrar <código>`` from any chat on either platform.
:class:`bot.service.Service` mixes them in; the plumbing is :class:`bot.runner.GameRunner`'s
(through :class:`bot.queue_calls.QueueCalls`: a seat taken leaves the queue)."""

from __future__ import annotations

from collections.abc import Callable

from bot import invites, places
from bot.chat_calls import CHAT_BIND_TTL_S
from bot.effects import ChatRef, Effect, PlayerRef, Reply
from bot.i18n import N_, Translator
from bot.queue_calls import QueueCalls

WITHDRAW_WORDS = {"retirar", "withdraw", "ritira", "ritirare"}
ALL_WORDS = {"todos", "all", "tutti"}
InviteLinks = Callable[[str], list[str]]
"""A platform's links for a code (Telegram: ``t.me/<bot>?start=c<code>``)."""
INVITED = N_("Convite para esta mesa: {code}\nQuem recebe entra de qualquer grupo ou do "
             "privado com o bot, {where}, com /entrar {code}\nVale "
             "{minutes} min e um lugar. Para retirar: /convidar retirar {code}")
WHERE = {"tg": N_("no Telegram"), "dc": N_("no Discord")}
"""Where ``/entrar`` works, per platform served (issue 35: only those the bot serves)."""
BOTH = N_("{first} ou {second}")
PLAYING = N_("Você está numa partida em andamento: termine-a antes de entrar em outra mesa.")
WITHDRAWN = N_("Convite retirado.")
WITHDRAWN_ALL = N_("Convites retirados.")


class InviteCalls(QueueCalls):
    """``/convidar`` and ``/entrar <código>`` (see the module docstring).
    ``invite_ttl_s``: how long a code seats someone (``INVITE_TTL_S``); ``invite_links``:
    per platform (``"tg"``), the links its adapter offers for a code; ``served``: the
    platforms the bot serves (``{"tg", "dc"}``, set by the adapters from the tokens,
    :func:`bot.startup.served_platforms`): the reply names only those, and the caller's.
    """

    invite_ttl_s: int = invites.INVITE_TTL_S
    invite_links: dict[str, InviteLinks]
    served: frozenset[str] = frozenset()

    async def invite(self, chat: ChatRef, user: PlayerRef, args: str = "", *,
                     update: str | None = None) -> list[Effect]:
        """``/convidar``: a new code for one seat of the chat's lobby, told to ``user``
        with the links of every platform this process serves (theirs first: a Discord
        person may call a Telegram friend with the ``t.me`` links); ``/convidar
        retirar [código|todos]``: the creator withdraws that code (or every one)."""
        gid = await self._chat_game(chat, user, update)
        if isinstance(gid, list):
            return gid
        words = args.split()
        now = self.clock.now()
        if words and words[0].lower() in WITHDRAW_WORDS:
            named = len(words) > 1 and words[1].lower() not in ALL_WORDS
            code = invites.norm_code(words[1]) if named else None
            if named and code is None:
                return await self._reply(chat, user, invites.BAD_CODE)
            out = await self._run(gid, user, lambda g: invites.withdraw(g, user, code, now),
                                  update=update, chat=chat)
            if out:  # refused, or an update already applied
                return out
            if code is not None:
                await self.store.drop_invite(code, gid)
            return await self._reply(chat, user, WITHDRAWN if code else WITHDRAWN_ALL)
        code = invites.new_code()
        await self.store.put_invite(code, gid, self.invite_ttl_s)  # only finds the game
        out = await self._run(gid, user, lambda g: invites.invite(
            g, user, code, now, self.invite_ttl_s), update=update, chat=chat)
        if out:
            return out
        got = await self._load(gid)
        if got is None or code not in got[1].invites:
            return []  # a redelivered /convidar: its code was told the first time
        _ = Translator(await self._lang(chat))
        known: dict[str, InviteLinks] = getattr(self, "invite_links", {})
        text = _(INVITED, code=code, minutes=self.invite_ttl_s // 60,
                 where=served_text({user.platform, *known, *self.served}, _))
        mine = [known[user.platform]] if user.platform in known else []
        for links in [*mine, *(f for p, f in sorted(known.items()) if p != user.platform)]:
            text = "\n".join([text, *links(code)])
        return [Reply(player=user, text=text)]

    async def join_code(self, chat: ChatRef, user: PlayerRef, text: str, *,
                        update: str | None = None) -> list[Effect]:
        """``/entrar <código>`` (or the Telegram link's ``/start c<código>``): a seat at
        the lobby the code belongs to, from ``chat``, which becomes a place of the table
        and is bound to it (so its commands and buttons find it). Refused, changing
        nothing: a code that is malformed, unknown, used, withdrawn or expired; a chat
        that has another table; a person playing another game (:data:`PLAYING`, issue 35);
        and what ``/entrar`` refuses (a full or started table). A seat taken takes the
        person out of the queue (:meth:`hold_seat`, before the save)."""
        code = invites.norm_code(text)
        gid = await self.store.invite_game(code) if code is not None else None
        if code is None or gid is None:
            if not await self._fresh(update, chat):
                return []
            return await self._reply(chat, user, invites.BAD_CODE if code is None
                                     else invites.GONE)
        active = await self._active(chat)
        if active is not None and active != gid:
            if not await self._fresh(update, chat):
                return []
            return await self._reply(chat, user, invites.OTHER_GAME_HERE)
        if await self.playing(user, but=gid) is not None:  # issue 35: one game at a time
            if not await self._fresh(update, chat):
                return []
            return await self._reply(chat, user, PLAYING)
        bound = active is None and await self.store.bind_chat(chat.key, gid, CHAT_BIND_TTL_S)
        now = self.clock.now()
        held = await self.hold_seat(gid, user)
        out = await self._run(gid, user, lambda g: invites.take_seat(g, user, code, chat, now),
                              update=update, chat=chat)
        got = await self._load(gid)  # the code's key stays until it expires: a
        game = got[1] if got is not None else None  # redelivery must find the game
        if bound and (game is None or not places.has_place(game, chat)):
            await self.store.unbind_chat(chat.key, gid)  # the seat was refused
        await self.took_seat(gid, user, held)
        return out


def served_text(platforms: set[str], _: Translator) -> str:
    """Where ``/entrar`` works for ``platforms`` (``{"tg"}``: "no Telegram"; both: "no
    Telegram ou no Discord"), Telegram first; unknown keys are left out."""
    names = [_(WHERE[p]) for p in sorted(platforms, key=lambda p: p != "tg") if p in WHERE]
    return _(BOTH, first=names[0], second=names[1]) if len(names) > 1 else "".join(names)
