"""The HTML mail on a phone (issue 26): Chromium shows a real your-turn mail, picture included,
and a real answer to a reply at 320, 390 and 414 px wide with nothing wider than the screen (no
horizontal scrolling), in one column of at most 600 px on a wide screen."""

from __future__ import annotations

import base64
from datetime import UTC, datetime

from server import create_app
from server.notifications.render import answer_html
from server.scheduler.tick import Ticker
from tests.server.scheduler.helpers import Table
from tests.server.scheduler_fixtures import _free_port, db_url, smtp_server  # noqa: F401
from tests.server.web.browser import SCREENSHOTS, chromium

WIDTHS = (320, 390, 414)


def _as_file(message, tmp_path, name: str):
    """The HTML part, its cid: pictures made data: URIs again (as a mail client shows them)."""
    html = message.get_body(("html",)).get_content()
    for part in message.walk():
        cid = part["Content-ID"]
        if cid:
            data = base64.b64encode(part.get_content()).decode()
            html = html.replace(f"cid:{cid.strip('<>')}", f"data:image/png;base64,{data}")
    path = tmp_path / f"{name}.html"
    path.write_text(html, encoding="utf-8")
    return path


def _overflow(browser, path, width: int, screenshot: str | None = None) -> dict:
    browser.set_window_size(width, 844)
    browser.get(path.as_uri())
    # The viewport is what the page lays out in: the window minus nothing (headless, no bars).
    measured = browser.execute_script(
        "return {viewport: document.documentElement.clientWidth,"
        " scroll: document.documentElement.scrollWidth,"
        " column: document.querySelector('.column').getBoundingClientRect().width,"
        " images: Array.from(document.images).map(i => i.complete && i.naturalWidth > 0)};")
    if screenshot:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(SCREENSHOTS / screenshot))
    return measured


def test_the_turn_mail_and_an_answer_fit_a_phone_screen(db_url, smtp_server, tmp_path):  # noqa: F811
    handler, port = smtp_server
    app = create_app({"DATABASE_URL": db_url, "SMTP_URL": f"smtp://127.0.0.1:{port}?security=none",
                      "BASE_URL": "https://iridescia.test"})
    table = Table(app)
    ada, bob = table.register("Adalovelacebyronking"), table.register("Bob")
    game_id = table.new_game(ada, [bob], rhom=False)
    ticker = Ticker(app, lambda: datetime.now(UTC), name="test")
    ticker.tick()
    handler.received.clear()
    table.play_turn(game_id)
    ticker.tick()
    ticker.tick()
    [turn_mail] = [m for m in handler.received if "your turn" in m.message["Subject"]]
    turn_page = _as_file(turn_mail.message, tmp_path, "turn")
    answer = tmp_path / "answer.html"
    answer.write_text(answer_html("Re: your turn", "Applied:\n    move 2c\n" + "x" * 200 + "\n"
                                  + turn_mail.message.get_body(("plain",)).get_content(),
                                  "https://iridescia.test/g",
                                  "https://iridescia.test/g/board.png"), encoding="utf-8")

    browser = chromium()
    try:
        for width in WIDTHS:
            for page in (turn_page, answer):
                shot = f"mail_{page.stem}_{width}.png" if width == 390 else None
                measured = _overflow(browser, page, width, shot)
                assert measured["scroll"] <= measured["viewport"], (page.stem, width, measured)
        measured = _overflow(browser, turn_page, 1280)
        assert measured["column"] <= 600 and measured["images"] == [True]
    finally:
        browser.quit()
