"""tools/chatdraw.py draws a bot message as a chat shows it for the player's guide
(issue 30): the text laid out in lines, suits in their colours, the buttons below."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import chatdraw  # noqa: E402

RED = (214, 40, 40)


def colours(path: Path) -> set[tuple[int, int, int]]:
    with Image.open(path) as image:
        rgb = image.convert("RGB")
        return {rgb.getpixel((x, y))[:3] for x in range(0, rgb.width, 2)  # type: ignore[index]
                for y in range(rgb.height)}


def test_html_runs_keep_bold_and_drop_other_tags() -> None:
    assert chatdraw.html_runs("<b>Sua mão</b>\n5&amp;<i>6</i>") == [
        ("Sua mão", True), ("\n5&", False), ("6", False)]
    assert chatdraw.markdown_runs("**Vez** de `Ana`") == [("Vez", True), (" de Ana", False)]


def test_lines_break_at_spaces_within_the_width_and_keep_line_breaks() -> None:
    lines = chatdraw.layout([("um dois três quatro\ncinco", False)], chatdraw.TG_TEXT, 120)
    texts = ["".join(t for t, _b in line).strip() for line in lines]
    assert texts == ["um dois três", "quatro", "cinco"]


def test_a_telegram_message_shows_red_hearts_and_its_buttons(tmp_path: Path) -> None:
    path = chatdraw.telegram_png("<b>Sua mão</b>\n5♥️ 6♠", [[{"text": "Descartar"}]],
                                 "Mesa", tmp_path / "tg.png")
    with Image.open(path) as image:
        assert image.width == 720 and 200 < image.height < 400
    found = colours(path)
    assert RED in found and chatdraw.TG_BUTTON in found and (20, 20, 20) in found


def test_a_discord_hand_shows_its_embed_select_and_only_you_line(tmp_path: Path) -> None:
    message = SimpleNamespace(content="", embeds=[{"title": "Sua mão (2 cartas)",
                                                   "description": "5♦ 6♣", "color": 0x2E7D32}],
                              components=[{"type": 1, "components": [
                                  {"type": 2, "style": 1, "label": "Minha mão"}]}])
    path = chatdraw.discord_png(message, tmp_path / "dc.png", only_you=True)
    found = colours(path)
    assert chatdraw.DC_TEXT.red_suit in found and (46, 125, 50) in found
    assert chatdraw.DC_STYLES[1] in found and chatdraw.DC_EMBED in found
