"""Every email of a game to one address is one thread: it replies to the game's first email to
them (the invitation, or the game's start); every email says it was sent automatically."""

from collections import defaultdict
from datetime import UTC, datetime

from server import create_app
from server.scheduler.tick import Ticker
from tests.server.scheduler.helpers import Table


def test_the_emails_of_a_game_thread_for_each_recipient(db_url, smtp_server):
    handler, port = smtp_server
    app = create_app({"DATABASE_URL": db_url, "SMTP_URL": f"smtp://127.0.0.1:{port}?security=none",
                      "MAIL_FROM": "Iridescia <games@iridescia.test>"})
    table = Table(app)
    ada, bob = table.register("Ada"), table.register("Bob")
    game = table._call("post", "/games", ada, seats=2)
    table._call("post", f"/games/{game['id']}/invitations", ada, email=bob.email)
    table._call("post", "/games/join", bob, code=game["join_code"])
    table._call("post", f"/games/{game['id']}/start", ada)
    ticker = Ticker(app, lambda: datetime.now(UTC), name="test")
    ticker.tick()
    for _ in range(4):
        table.play_turn(game["id"])
        ticker.tick()

    by_recipient = defaultdict(list)
    for received in handler.received:
        by_recipient[received.recipients[0]].append(received.message)
    assert set(by_recipient) == {ada.email, bob.email}
    assert [m["Subject"] for m in by_recipient[bob.email]][0] == (
        "Ada invites you to a game of Gems of Iridescia")
    ids = [m["Message-ID"] for messages in by_recipient.values() for m in messages]
    assert len(ids) == len(set(ids)) and all(i.endswith("@iridescia.test>") for i in ids)
    for messages in by_recipient.values():
        assert len(messages) >= 3  # the first, and at least two that reply to it
        first, *later = messages
        assert first["In-Reply-To"] is None and first["References"] is None
        for message in later:
            assert message["In-Reply-To"] == first["Message-ID"]
            assert message["References"] == first["Message-ID"]
        assert all(m["Auto-Submitted"] == "auto-generated" for m in messages)
    # Two addresses, two threads: Ada's start is not Bob's.
    assert by_recipient[ada.email][0]["Message-ID"] != by_recipient[bob.email][0]["Message-ID"]
