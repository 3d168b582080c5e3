"""/players/<id> (a player: ratings, finished games with results, running games, win rate per
player count; private games only to those who played them) and /leaderboard (per track)."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask_babel import gettext as _

from server.http.errors import fail
from server.ratings import leaderboard, players
from server.ratings.derived import PROVISIONAL_GAMES, TRACK_NAMES, TRACKS
from server.storage.db import db_session
from server.web.routes import _page_user

blp = Blueprint("player_pages", __name__, template_folder="templates")
BOARD_SHOWN = 50


@blp.get("/players/<int:user_id>")
def player_page(user_id: int):
    session = db_session()
    viewer = _page_user()
    shown = players.profile(session, players.public_user(session, user_id), viewer)
    return render_template("player.html", user=viewer, player=shown,
                           provisional_games=PROVISIONAL_GAMES)


@blp.get("/leaderboard")
def leaderboard_page():
    track = request.args.get("track", "2")
    if track not in TRACKS:
        fail(400, _("?track= takes one of %(allowed)s, not %(value)r", allowed=", ".join(TRACKS),
                    value=track))
    rows = leaderboard.board(db_session(), track)[:BOARD_SHOWN]
    return render_template("leaderboard.html", user=_page_user(), rows=rows, track=track,
                           tracks=TRACK_NAMES, provisional_games=PROVISIONAL_GAMES)
