"""The coach in the terminal (issue 37): ``dica`` answers with the strong robot's move
for the person's turn, ``revisao`` with the last finished deal's costliest decisions."""

from __future__ import annotations

from console_support import typed_game
from test_service_support import SeededDecks


async def test_dica_in_the_terminal_tells_the_move_on_the_person_s_turn_only() -> None:
    game, out = typed_game(["dica", "dica agora", "revisao", "q"], SeededDecks(),
                           echo_chars=20)
    assert await game.setup("buraco", None)
    await game.play()
    text = out.getvalue()
    assert "Dica: Compre do monte (é a única compra possível)." in text
    assert "dica não leva números." in text
    assert "Ainda não há mão terminada nesta partida para revisar." in text
    assert "dica = a jogada do robô forte" not in text  # no help was asked for
