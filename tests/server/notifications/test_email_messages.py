"""Table talk in the mail (issue 21): the next email to each player tells what the others said
since that player's last turn, on both channels, in the text part and escaped in the HTML."""

from datetime import UTC, datetime

import engine
from server import create_app
from server.scheduler.tick import Ticker
from tests.server.scheduler.helpers import Table


def _parts(mail):
    text = mail.message.get_body(("plain",)).get_content().replace("\r\n", "\n")
    return text, mail.message.get_body(("html",)).get_content()


def test_the_next_turn_mail_gives_the_messages_since_your_last_turn(db_url, smtp_server):
    handler, port = smtp_server
    app = create_app({"DATABASE_URL": db_url,
                      "SMTP_URL": f"smtp://127.0.0.1:{port}?security=none"})
    table = Table(app)
    ada, bob, eve = table.register("Ada"), table.register("Bob"), table.register("Eve")
    game_id = table.new_game(ada, [bob], public=True)
    ticker = Ticker(app, lambda: datetime.now(UTC), name="test")
    ticker.tick()
    first = table.player_at(game_id, engine.current_player(table.state(game_id)))
    second = bob if first is ada else ada

    def say(player, text):
        table._call("post", f"/games/{game_id}/messages", player, text=text)

    say(first, "<script>alert('x')</script> good luck")
    say(eve, "Go & win!")
    handler.received.clear()
    table.play_turn(game_id)
    ticker.tick()
    ticker.tick()

    [mail] = handler.received
    assert mail.recipients == [second.email]
    text, html = _parts(mail)
    block = text.split("Messages since your last turn:\n")[1].split("\n\n")[0]
    lines = block.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"  [players] {first.name}, ")
    assert lines[0].endswith(" UTC: <script>alert('x')</script> good luck")
    assert lines[1].startswith("  [spectators] Eve (watching), ") and lines[1].endswith(": Go & win!")
    assert "<h3>Messages since your last turn</h3>" in html
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; good luck" in html
    assert "<script>" not in html and "Go &amp; win!" in html

    # The reply: the first player is told only what came after their own last turn.
    say(second, "thanks")
    handler.received.clear()
    table.play_turn(game_id)
    ticker.tick()
    ticker.tick()
    [mail] = [m for m in handler.received if m.recipients == [first.email]]
    text, html = _parts(mail)
    block = text.split("Messages since your last turn:\n")[1].split("\n\n")[0]
    assert block.count("\n") == 0 and block.startswith(f"  [players] {second.name}, ")
    assert block.endswith(": thanks") and "good luck" not in text and "Go & win" not in text
