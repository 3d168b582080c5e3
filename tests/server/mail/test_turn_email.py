"""A move through the API, a tick, and the next player's mailbox on a real SMTP server."""

import re
from datetime import UTC, datetime

from sqlmodel import select

import engine
import engine.text.board
import engine.text.narrate
import engine.text.notation
from server import create_app
from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox
from tests.server.scheduler.helpers import Clock, Table


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
            "Gems of Iridescia: the game has started"
            + (", your turn 1" if first is ada else "") + f" ({game_id})",
        ),
        (
            "bob@example.org",
            "Gems of Iridescia: the game has started"
            + (", your turn 1" if first is bob else "") + f" ({game_id})",
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
    # What the other did that matters most, then the turn: "... — your turn 2 (ID)".
    assert re.fullmatch(rf"(.+ — )?[Yy]our turn 2 \({game_id}\)", mail.message["Subject"])
    text = mail.message.get_body(("plain",)).get_content()
    assert f"put the game after the first word: iridescia reveal {game_id} " in text
    assert f"What now:   iridescia legal {game_id}" in text
    # "The game:" is a sign-in link to the game's page (server/users/sign_in.py).
    assert "The game: https://iridescia.test/sign-in/" in text
    text = text.replace("\r\n", "\n")
    # What the other player did since, to the end of their turn (the tile collected, the market
    # adjusted: the last events of the previous turn are there).
    state = table.state(game_id)
    seat = engine.current_player(state)
    told = engine.text.narrate.narrate_lines(table.events(game_id), {}, seat)
    assert f"  Turn 1: {first.name}\n" in text
    collected = next(line for line in told if "collected the" in line)
    assert collected.split(" collected the ")[1] in text
    # What may be typed now: every legal command's notation line.
    lines = {engine.text.notation.format(c) for c in engine.legal_commands(state, seat)}
    typed = text.split("What you may type now (reply with one command a line):\n")[1]
    assert {line.strip() for line in typed.split("\nIn a terminal")[0].splitlines()} == lines
    # The whole board, as `iridescia show --no-color` draws it for this player.
    names = {s: table.player_at(game_id, s).name for s in (0, 1)}
    board = engine.text.board.render_plain(engine.view(state, seat), {
        "id": game_id, "players": [{"seat": s, "name": n} for s, n in names.items()]})
    assert board in text
    assert "Objectives  " in board and "Supply      " in board
    # Players by name, never by seat number; the turn's number, not the game's version.
    assert f"Turn 2: {second.name} (you), " in board
    marks = ", ".join(f"{n[0].lower()} {n}" for n in names.values())  # Ada's a, Bob's b
    assert f"the explorers there ({marks})" in board
    assert "seat" not in board.lower() and "version" not in board.lower()


def test_smtp_outage_then_recovery_every_game_notification_arrives_once(db_url, smtp_server):
    handler, port = smtp_server
    app = create_app({"DATABASE_URL": db_url, "SMTP_URL": f"smtp://127.0.0.1:{port}?security=none"})
    table = Table(app)
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob])
    clock = Clock(datetime.now(UTC))
    ticker = Ticker(app, clock, name="test")

    handler.refuse = "421 4.3.2 Service not available, closing channel"
    for _ in range(4):
        table.play_turn(game_id)
        ticker.tick()
        clock.advance(seconds=20)
    assert handler.received == [] and handler.refused > 0

    handler.refuse = None
    for _ in range(12):  # the backoff grows past an hour in the worst case; step well beyond
        clock.advance(minutes=30)
        ticker.tick()

    with session_scope(app_engine(app)) as session:
        queued = sorted(session.exec(select(Outbox.dedupe_key)).all())
        assert set(session.exec(select(Outbox.status)).all()) == {"sent"}
    received = sorted(r.message["X-Iridescia-Key"] for r in handler.received)
    assert received == queued
    assert len(queued) == 2 + 4  # both told of the start, then one "your turn" per turn played
