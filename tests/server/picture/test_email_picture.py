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

MAX_PNG_BYTES = 400_000
MAX_EMAIL_BYTES = 700_000


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
            channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
            size = (width, height, channels * depth // 8)
        elif kind == b"IDAT":
            pixels += body
        position += 12 + length
    width, height, per_pixel = size
    assert len(zlib.decompress(pixels)) == height * (1 + width * per_pixel)
    return width, height


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

    [mail] = [m for m in handler.received if m.message["Subject"].endswith("your turn")]
    html_part = mail.message.get_body(("html",))
    html = html_part.get_content()
    [cid] = re.findall(r'<img src="cid:([^"]+)" alt="The board of game ', html)
    assert "data:image" not in html
    [image] = [part for part in mail.message.walk() if part["Content-ID"] == f"<{cid}>"]
    assert image.get_content_type() == "image/png"
    assert image.get_content_disposition() == "inline"
    png = image.get_content()
    width, height = decode_png(png)
    assert width > 600 and height > 500
    assert len(png) < MAX_PNG_BYTES
    assert len(bytes(mail.message)) < MAX_EMAIL_BYTES
    # The text part keeps the text board; "Open the game" signs in on the game's page.
    text = mail.message.get_body(("plain",)).get_content()
    assert "\nThe board:" in text.replace("\r\n", "\n") and "data:image" not in text
    assert re.search(r'<a href="https://iridescia\.test/sign-in/[^"]+">Open the game</a>', html)


def test_a_plain_answer_gets_an_html_part_with_the_board_inlined():
    """The helper for emails written as text (the answers to replies by mail)."""
    from types import SimpleNamespace

    import engine
    from server.mail.message import build_message
    from server.mail.settings import MailSettings
    from server.picture.png import html_with_board
    from tests.server.picture.boards import NAMES, states

    view = engine.view(states()["mid"], 1)
    html = html_with_board("Applied: <move 2c>\n", view, NAMES, "g1", "https://x.test/sign-in/t")
    row = SimpleNamespace(to_email="ada@example.org", subject="Re: your turn",
                          text_body="Applied: <move 2c>\n", html_body=html, dedupe_key="k",
                          created_at=datetime.now(UTC))
    message = build_message(row, MailSettings())
    body = message.get_body(("html",)).get_content()
    assert "Applied: &lt;move 2c&gt;" in body and 'src="cid:board@iridescia"' in body
    [image] = [p for p in message.walk() if p.get_content_type() == "image/png"]
    assert decode_png(image.get_content())[0] > 600
