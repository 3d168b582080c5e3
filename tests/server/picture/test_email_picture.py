"""The your-turn email carries the board as an inline PNG, referenced by cid: from the HTML part,
on a real SMTP server; the PNG decodes and stays small enough for a mailbox."""

from __future__ import annotations

import re
import struct
import zlib
from datetime import UTC, datetime

from server import create_app
from server.scheduler.tick import Ticker
from tests.server.scheduler.helpers import Table
from tests.server.scheduler_fixtures import _free_port, db_url, smtp_server  # noqa: F401 (fixtures)

# Issue 26's targets: the your-turn mail, picture included, at most 60 KB.
MAX_PNG_BYTES = 30_000
MAX_EMAIL_BYTES = 60_000


def decode_png(data: bytes) -> tuple[int, int]:
    """(width, height) after checking every chunk's CRC and inflating the pixels: a PNG that
    does not decode raises."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    position, pixels, size = 8, b"", None
    while position < len(data):
        (length,) = struct.unpack(">I", data[position:position + 4])
        kind = data[position + 4:position + 8]
        body = data[position + 8:position + 8 + length]
        (crc,) = struct.unpack(">I", data[position + 8 + length:position + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"bad CRC in chunk {kind!r}"
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            palette = colour == 3
            channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
            size = (width, height, channels * depth)
        elif kind == b"IDAT":
            pixels += body
        position += 12 + length
    width, height, bits = size
    assert len(zlib.decompress(pixels)) == height * (1 + (width * bits + 7) // 8)
    return width, height, palette


def test_the_your_turn_email_shows_the_board_as_an_inline_png(db_url, smtp_server):  # noqa: F811
    handler, port = smtp_server
    app = create_app({"DATABASE_URL": db_url, "SMTP_URL": f"smtp://127.0.0.1:{port}?security=none",
                      "BASE_URL": "https://iridescia.test"})
    table = Table(app)
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob], rhom=False)
    ticker = Ticker(app, lambda: datetime.now(UTC), name="test")
    ticker.tick()
    handler.received.clear()
    table.play_turn(game_id)
    ticker.tick()
    ticker.tick()

    [mail] = [m for m in handler.received if "your turn" in m.message["Subject"]]
    html_part = mail.message.get_body(("html",))
    html = html_part.get_content()
    [cid] = re.findall(r'<img src="cid:([^"]+)" alt="The board of game ', html)
    assert "data:image" not in html
    [image] = [part for part in mail.message.walk() if part["Content-ID"] == f"<{cid}>"]
    assert image.get_content_type() == "image/png"
    assert image.get_content_disposition() == "inline"
    png = image.get_content()
    width, height, palette = decode_png(png)
    # The hex board alone, for a phone: at most 640 px wide, a palette PNG.
    assert 400 < width <= 640 and height > 500 and palette
    assert len(png) < MAX_PNG_BYTES
    assert len(bytes(mail.message)) < MAX_EMAIL_BYTES
    # The text part keeps the text board; "Open the game" signs in on the game's page.
    text = mail.message.get_body(("plain",)).get_content()
    assert "\nThe board:" in text.replace("\r\n", "\n") and "data:image" not in text
    assert re.search(r'<a href="https://iridescia\.test/sign-in/[^"]+">Open the game</a>', html)


def test_an_answer_to_a_reply_has_an_html_part_without_a_picture():
    """The answers to replies by mail stay light: their text in the phone-wide column, links to
    the game and to its board picture, nothing inline."""
    from types import SimpleNamespace

    from server.mail.message import build_message
    from server.mail.settings import MailSettings
    from server.notifications.render import answer_html

    board = "Castle       9a ░░     9b ·\nDesert  2a ·      2b E\n"
    text = f"Applied: <move 2c>\n\nThe board:\n{board}\nYou may type now:\n    mine\n"
    html = answer_html("Re: your turn", text, "https://x.test/sign-in/t",
                       "https://x.test/sign-in/p", board)
    row = SimpleNamespace(to_email="ada@example.org", subject="Re: your turn",
                          text_body=text, html_body=html, dedupe_key="k",
                          created_at=datetime.now(UTC))
    message = build_message(row, MailSettings())
    body = message.get_body(("html",)).get_content()
    assert "Applied: &lt;move 2c&gt;" in body and "<move" not in body
    assert '<a href="https://x.test/sign-in/t">Open the game</a>' in body
    # The text board is the text part's; the HTML links to the picture in its place.
    assert "9a ░░" not in body and '<a href="https://x.test/sign-in/p">See the board</a>' in body
    assert body.index("The board:") < body.index("See the board") < body.index("mine")
    assert "9a ░░" in message.get_body(("plain",)).get_content()
    assert not [p for p in message.walk() if p.get_content_type() == "image/png"]
