"""Emails show a player only what their seat may see: never another player's objectives."""

from sqlmodel import select

import engine
from engine.data import display_name
from server.mail.outbox import render_pending
from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox
from tests.server.scheduler.helpers import Clock


def test_no_email_shows_another_players_objectives(app, table):
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob])
    clock = Clock(table.game(game_id).turn_started_at)
    for _ in range(6):
        table.play_at(game_id, clock())
    state = table.state(game_id)
    assert not engine.is_terminal(state)
    secret = {}
    for player in (ada, bob):
        seat = next(s for s in (0, 1) if table.player_at(game_id, s) is player)
        objectives = engine.view(state, seat)["players"][seat]["objectives"]
        secret[player.email] = {text for o in objectives for text in (o, display_name(o))}

    # Rendered as the sender renders them: from the game at each notice's version.
    assert render_pending(app_engine(app)) >= 6
    with session_scope(app_engine(app)) as session:
        rows = session.exec(select(Outbox)).all()
    assert len(rows) >= 6
    for row in rows:
        other = bob.email if row.to_email == ada.email else ada.email
        own_only = secret[other] - secret[row.to_email]
        leaked = [text for text in own_only if text in row.text_body or text in row.html_body]
        assert leaked == [], f"{row.kind} mail to {row.to_email} shows {leaked}"
    mine = [row for row in rows if row.kind == "your_turn"]
    assert mine and all(any(text in row.text_body for text in secret[row.to_email]) for row in mine)
    # What was searched holds everything a turn email carries: the story, the board, the lines.
    for row in mine:
        for part in ("Since your last turn:\n", "What you may type now", "The board:\n",
                     "Gem market  ", "Relics      ", "You: hold "):
            assert part in row.text_body, (part, row.text_body)
