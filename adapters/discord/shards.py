"""Discord's sharding settings (``DISCORD_SHARD_COUNT``, ``DISCORD_SHARD_IDS``), read
and checked before the client starts (adapters/discord/process.py)."""

from __future__ import annotations

from adapters.delivery.i18n import N_, Texts
from bot.effects import number


class ShardSettingError(ValueError):
    """A bad ``DISCORD_SHARD_COUNT`` / ``DISCORD_SHARD_IDS``: ``template`` is the pt-BR
    line (a msgid of the ``chat`` domain) and ``params`` its values; ``str()`` is the
    pt-BR line, :meth:`line` the line in another language."""

    def __init__(self, template: str, **params: str) -> None:
        self.template, self.params = template, params
        super().__init__(template.format(**params))

    def line(self, lang: str) -> str:
        """The line in ``lang`` (pt, en or it)."""
        return Texts(lang)(self.template, **self.params)


def shard_settings(count_text: str | int | None,
                   ids: str | None) -> tuple[int | None, list[int] | None]:
    """``DISCORD_SHARD_COUNT`` (a whole number >= 1) and ``DISCORD_SHARD_IDS`` (``"0,1"``,
    each below the count) as client arguments. Raises :class:`ShardSettingError` (one
    line naming the variable) when either is not so (start-up prints it, no traceback)."""
    count: int | None = None
    if count_text is not None and str(count_text).strip():
        text = str(count_text).strip()
        count = number(text)
        if not count:
            raise ShardSettingError(N_("DISCORD_SHARD_COUNT inválido ({value}): use um número "
                                       "inteiro a partir de 1"), value=repr(text))
    if not ids or not ids.strip():
        return count, None
    found = [number(part.strip()) for part in ids.split(",") if part.strip()]
    shard_ids = [n for n in found if n is not None]
    if len(shard_ids) != len(found):
        raise ShardSettingError(N_("DISCORD_SHARD_IDS inválido ({value}): use números "
                                   "separados por vírgula, ex.: 0,1"), value=repr(ids))
    if count is None or any(not 0 <= i < count for i in shard_ids):
        raise ShardSettingError(N_("DISCORD_SHARD_IDS precisa de DISCORD_SHARD_COUNT e de "
                                   "números menores que ele"))
    return count, shard_ids
