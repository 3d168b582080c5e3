"""A move through the API, a tick, and the next player's mailbox on a real SMTP server."""

from datetime import UTC, datetime

import engine
from server import create_app
from server.scheduler.tick import Ticker
from tests.scheduler.conftest import Table


def test_after_a_move_the_next_player_gets_exactly_one_email_saying_how_to_play(
    db_url, smtp_server
):
    handler, port = smtp_server
    app = create_app(
        {
            "DATABASE_URL": db_url,
            "SMTP_URL": f"smtp://127.0.0.1:{port}?security=none",
            "MAIL_FROM": "Iridescia <games@iridescia.test>",
            "BASE_URL": "https://iridescia.test",
        }
    )
    table = Table(app)
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob], rhom=False)
    ticker = Ticker(app, lambda: datetime.now(UTC), name="test")
    ticker.tick()
    started = sorted((r.recipients[0], r.message["Subject"]) for r in handler.received)
    first = table.player_at(game_id, engine.current_player(table.state(game_id)))
    assert started == [
        (
            "ada@example.org",
            f"Gems of Iridescia {game_id}: the game has started"
            + (", your turn" if first is ada else ""),
        ),
        (
            "bob@example.org",
            f"Gems of Iridescia {game_id}: the game has started"
            + (", your turn" if first is bob else ""),
        ),
    ]
    handler.received.clear()

    table.play_turn(game_id)
    ticker.tick()
    ticker.tick()

    second = bob if first is ada else ada
    [mail] = handler.received
    assert mail.recipients == [second.email]
    assert mail.message["To"] == second.email
    assert mail.message["Subject"] == f"Gems of Iridescia {game_id}: your turn"
    text = mail.message.get_body(("plain",)).get_content()
    assert f"To play:    iridescia reveal {game_id} HEX [HEX]" in text
    assert f"What now:   iridescia legal {game_id}" in text
    assert f"https://iridescia.test/api/v1/games/{game_id}/view" in text
    assert f"{first.name}: " in text  # what the other player did since their last turn
