"""The one error the engine raises for a move or input the rules refuse."""

from __future__ import annotations


class IllegalAction(Exception):
    """A refused action or input (DESIGN example 2).

    ``code`` is stable (for programs). ``template`` is the pt-BR reason with ``{name}``
    placeholders and ``params`` their values (plain text or numbers, cards already
    rendered); the template is the gettext msgid, so a service shows the reason in a
    chat's language as ``_(template).format(**params)`` (catalog ``bot/locale/*/engine.po``).
    ``message`` is the pt-BR reason: ``template.format(**params)``, or ``template`` as
    written when there are no params (so a template without params may hold braces).
    ``cards`` names the meld the reason is about when a lay-down held several (the
    cards of that new meld or extension, rendered: ``("7♣", "8♣", "10♣")``), else ().
    """

    def __init__(self, code: str, template: str, **params: str | int) -> None:
        message = template.format(**params) if params else template
        super().__init__(f"{code}: {message}")
        self.code = code
        self.template = template
        self.params = params
        self.message = message
        self.cards: tuple[str, ...] = ()
