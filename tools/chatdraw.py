"""Draw a bot message as a chat shows it (Pillow): a Telegram message (HTML text and
inline keyboard) in a light chat, a Discord message (embeds and components) in the dark
theme. Card suits keep their colours: hearts and diamonds red, clubs and spades dark on
Telegram, light on Discord. Used by ``tools/screenshots.py``; fonts: DejaVu Sans (the
suits' glyphs), looked for where Debian, Ubuntu and matplotlib put it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu",
             "/usr/local/share/fonts", "/Library/Fonts")
RED_SUITS, DARK_SUITS = "♥♦", "♣♠"
Rgb = tuple[int, int, int]
Run = tuple[str, bool]  # text, bold


def font(bold: bool, size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (Bold) at ``size`` px. Raises FileNotFoundError naming the font when
    it is not installed (``apt install fonts-dejavu-core``)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for where in FONT_DIRS:
        path = Path(where) / name
        if path.is_file():
            return ImageFont.truetype(str(path), size)
    try:
        import matplotlib

        return ImageFont.truetype(str(Path(matplotlib.get_data_path()) / "fonts" / "ttf"
                                      / name), size)
    except (ImportError, OSError):
        raise FileNotFoundError(f"{name} not found: apt install fonts-dejavu-core") from None


class _Html(HTMLParser):
    """Telegram HTML as runs: ``<b>``/``<strong>`` bold, other tags dropped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.runs: list[Run] = []
        self.bold = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.bold += tag in ("b", "strong")

    def handle_endtag(self, tag: str) -> None:
        self.bold -= tag in ("b", "strong") and self.bold > 0

    def handle_data(self, data: str) -> None:
        self.runs.append((data, self.bold > 0))


def html_runs(text: str) -> list[Run]:
    """The runs of a Telegram HTML text."""
    parser = _Html()
    parser.feed(text)
    return parser.runs


def markdown_runs(text: str, bold: bool = False) -> list[Run]:
    """The runs of Discord markdown (``**bold**``; backticks and escapes dropped)."""
    runs: list[Run] = []
    for k, part in enumerate(re.split(r"\*\*", text)):
        runs.append((re.sub(r"\\(.)", r"\1", part.replace("`", "")), bold or k % 2 == 1))
    return [r for r in runs if r[0]]


@dataclass
class Style:
    """Colours and size of a block of text."""

    size: int
    color: Rgb
    dark_suit: Rgb
    red_suit: Rgb = (214, 40, 40)


def _clean(text: str) -> str:
    return html.unescape(text).replace("\ufe0f", "")


def layout(runs: list[Run], style: Style, width: int) -> list[list[Run]]:
    """``runs`` broken into lines of at most ``width`` px (at spaces; a word longer than
    a line stays whole), the text's own line breaks kept."""
    lines: list[list[Run]] = [[]]
    used = 0.0
    for text, bold in runs:
        face = font(bold, style.size)
        for k, para in enumerate(_clean(text).split("\n")):
            if k:
                lines.append([])
                used = 0.0
            for word in re.findall(r"\S+\s*|\s+", para):
                w = face.getlength(word)
                if used + face.getlength(word.rstrip()) > width and used > 0:
                    lines.append([])
                    used = 0.0
                    word = word.lstrip()
                    w = face.getlength(word)
                lines[-1].append((word, bold))
                used += w
    return lines


def draw_lines(draw: ImageDraw.ImageDraw, lines: list[list[Run]], style: Style,
               x: int, y: int) -> int:
    """Draw laid-out lines from (x, y), suits in their colours; returns the y below."""
    step = int(style.size * 1.45)
    for line in lines:
        cx = float(x)
        for text, bold in line:
            face = font(bold, style.size)
            for piece in re.split(f"([{RED_SUITS}{DARK_SUITS}])", text):
                if not piece:
                    continue
                color = (style.red_suit if piece in RED_SUITS else
                         style.dark_suit if piece in DARK_SUITS else style.color)
                draw.text((cx, y), piece, font=face, fill=color)
                cx += face.getlength(piece)
        y += step
    return y


def _canvas(width: int, color: Rgb) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, 4000), color)
    return image, ImageDraw.Draw(image)


def _save(image: Image.Image, height: int, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    image.crop((0, 0, image.width, height)).save(path, optimize=True)
    return path


# ---- Telegram --------------------------------------------------------------------------
TG_BG: Rgb = (190, 213, 173)
TG_TEXT = Style(17, (20, 20, 20), (20, 20, 20))
TG_BUTTON: Rgb = (122, 153, 114)


def telegram_png(text: str, keyboard: list[list[dict[str, Any]]], chat: str,
                 path: Path, width: int = 720) -> Path:
    """A Telegram chat named ``chat`` showing the bot's message ``text`` (HTML) with its
    inline ``keyboard`` (rows of ``{"text": ...}``); written to ``path``."""
    image, draw = _canvas(width, TG_BG)
    draw.rectangle((0, 0, width, 58), fill=(255, 255, 255))
    draw.text((20, 8), chat, font=font(True, 18), fill=(0, 0, 0))
    draw.text((20, 33), "Buraco Bot", font=font(False, 14), fill=(112, 117, 121))
    bubble_w = width - 120
    lines = layout(html_runs(text), TG_TEXT, bubble_w - 28)
    top = 78
    height = 34 + len(lines) * int(TG_TEXT.size * 1.45) + 24
    draw.rounded_rectangle((16, top, 16 + bubble_w, top + height), 14, fill=(255, 255, 255))
    draw.text((30, top + 10), "Buraco Bot", font=font(True, 15), fill=(58, 138, 198))
    y = draw_lines(draw, lines, TG_TEXT, 30, top + 34)
    draw.text((16 + bubble_w - 50, y + 2), "21:04", font=font(False, 12), fill=(140, 150, 140))
    y = top + height + 6
    face = font(True, 15)
    for row in keyboard:
        if not row:
            continue
        gap, cell = 6, (bubble_w - 6 * (len(row) - 1)) / len(row)
        for k, button in enumerate(row):
            x0 = 16 + k * (cell + gap)
            draw.rounded_rectangle((x0, y, x0 + cell, y + 40), 10, fill=TG_BUTTON)
            label = _clean(str(button.get("text", "")))
            while face.getlength(label) > cell - 10 and len(label) > 2:
                label = label[:-2] + "…"
            _centered(draw, label, face, x0, y, cell, 40, (255, 255, 255),
                      red=(255, 150, 150))
        y += 46
    return _save(image, y + 14, path)


def _centered(draw: ImageDraw.ImageDraw, label: str, face: ImageFont.FreeTypeFont,
              x0: float, y0: float, w: float, h: float, color: Rgb, red: Rgb) -> None:
    """``label`` centred in the box, red suits in ``red``."""
    cx = x0 + (w - face.getlength(label)) / 2
    cy = y0 + (h - face.size * 1.2) / 2
    for piece in re.split(f"([{RED_SUITS}])", label):
        if piece:
            draw.text((cx, cy), piece, font=face, fill=red if piece in RED_SUITS else color)
            cx += face.getlength(piece)


# ---- Discord ---------------------------------------------------------------------------
DC_BG: Rgb = (49, 51, 56)
DC_EMBED: Rgb = (43, 45, 49)
DC_TEXT = Style(16, (219, 222, 225), (235, 235, 235), red_suit=(255, 92, 92))
DC_TITLE = Style(17, (255, 255, 255), (255, 255, 255), red_suit=(255, 92, 92))
DC_SMALL = Style(13, (148, 155, 164), (200, 200, 200), red_suit=(255, 92, 92))
DC_STYLES: dict[int, Rgb] = {1: (88, 101, 242), 2: (78, 80, 88), 3: (36, 128, 70),
                             4: (218, 55, 60), 5: (78, 80, 88)}


def discord_png(message: Any, path: Path, only_you: bool = False, width: int = 760) -> Path:
    """A Discord channel (dark theme) showing ``message`` (anything with ``content``,
    ``embeds`` and ``components`` as the API has them); ``only_you`` adds the line an
    ephemeral message carries. Written to ``path``."""
    image, draw = _canvas(width, DC_BG)
    draw.ellipse((16, 16, 56, 56), fill=(88, 101, 242))
    draw.text((29, 24), "B", font=font(True, 20), fill=(255, 255, 255))
    draw.text((72, 16), "Buraco", font=font(True, 16), fill=(242, 243, 245))
    badge_x = 72 + font(True, 16).getlength("Buraco") + 8
    draw.rounded_rectangle((badge_x, 18, badge_x + 34, 36), 4, fill=(88, 101, 242))
    draw.text((badge_x + 5, 20), "APP", font=font(True, 11), fill=(255, 255, 255))
    draw.text((badge_x + 44, 19), "hoje às 21:04", font=font(False, 12), fill=(148, 155, 164))
    x, y, inner = 72, 44, width - 72 - 24
    if getattr(message, "content", ""):
        y = draw_lines(draw, layout(markdown_runs(message.content), DC_TEXT, inner),
                       DC_TEXT, x, y) + 4
    for embed in getattr(message, "embeds", []) or []:
        y = _embed(image, embed, x, y + 4, min(inner, 560)) + 8
    for row in getattr(message, "components", []) or []:
        y = _component_row(draw, row.get("components", []), x, y, inner) + 8
    if only_you:
        draw.text((x, y + 2), "Somente você pode ver esta mensagem.", font=font(False, 13),
                  fill=(148, 155, 164))
        y += 24
    return _save(image, y + 16, path)


def _embed(image: Image.Image, embed: dict[str, Any], x: int, y: int, width: int) -> int:
    """Draw one embed box at (x, y); returns the y below it."""
    blocks: list[tuple[list[list[Run]], Style]] = []
    text_w = width - 32
    if embed.get("title"):
        blocks.append((layout(markdown_runs(str(embed["title"]), True), DC_TITLE, text_w),
                       DC_TITLE))
    if embed.get("description"):
        blocks.append((layout(markdown_runs(str(embed["description"])), DC_TEXT, text_w),
                       DC_TEXT))
    for field in embed.get("fields", []) or []:
        blocks.append((layout(markdown_runs(str(field.get("name", "")), True), DC_TEXT,
                              text_w), DC_TEXT))
        blocks.append((layout(markdown_runs(str(field.get("value", ""))), DC_TEXT, text_w),
                       DC_TEXT))
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        blocks.append((layout(markdown_runs(str(footer)), DC_SMALL, text_w), DC_SMALL))
    height = 24 + sum(len(lines) * int(style.size * 1.45) + 6 for lines, style in blocks)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((x, y, x + width, y + height), 6, fill=DC_EMBED)
    color = int(embed.get("color") or 0x5865F2)
    draw.rectangle((x, y, x + 4, y + height), fill=((color >> 16) & 255, (color >> 8) & 255,
                                                     color & 255))
    cy = y + 12
    for lines, style in blocks:
        cy = draw_lines(draw, lines, style, x + 16, cy) + 6
    return y + height


def _component_row(draw: ImageDraw.ImageDraw, items: list[dict[str, Any]], x: int, y: int,
                   width: int) -> int:
    """Buttons side by side (wrapping), or a select menu; returns the y below."""
    face = font(True, 14)
    cx = x
    for item in items:
        if item.get("type") == 3:  # a select menu: what is chosen, or its placeholder
            chosen = [o for o in item.get("options", []) if o.get("default")]
            label = ", ".join(_clean(str(o.get("label", ""))) for o in chosen) or _clean(
                str(item.get("placeholder", "")))
            box = min(width, 520)
            draw.rounded_rectangle((x, y, x + box, y + 40), 4, fill=(30, 31, 34))
            lines = layout([(label, False)], DC_TEXT, box - 48)[:1]
            draw_lines(draw, lines, DC_TEXT if chosen else DC_SMALL, x + 12, y + 10)
            draw.text((x + box - 26, y + 8), "▾", font=font(False, 18), fill=(181, 186, 193))
            return y + 40
        label = _clean(str(item.get("label", "")))
        w = face.getlength(label) + 32
        if cx + w > x + width:
            cx, y = x, y + 40
        fill = DC_STYLES.get(int(item.get("style", 2)), (78, 80, 88))
        if item.get("disabled"):
            fill = tuple(int(c * 0.6) for c in fill)  # type: ignore[assignment]
        draw.rounded_rectangle((cx, y, cx + w, y + 32), 4, fill=fill)
        _centered(draw, label, face, cx, y, w, 32, (255, 255, 255), red=(255, 200, 200))
        cx += w + 8
    return y + 32
