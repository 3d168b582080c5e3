"""What the game page loads besides itself: the board's stylesheet (where each hex's control
sits over the picture, each player's colour) and, at the end, the whole log to download.

The stylesheet is drawn from the board's geometry (server/picture/svg/hexes.py), so the page
needs no inline style: a strict Content-Security-Policy can forbid them."""

from __future__ import annotations

import json
from functools import cache

from flask import Blueprint
from flask_babel import gettext as _

from engine.board import ROWS, row_hexes
from server.api.games.play_routes import export
from server.api.games.play_schemas import ExportSchema
from server.http.errors import fail
from server.picture.svg.hexes import BOARD_HEIGHT, BOARD_WIDTH, HEX_WIDTH, RADIUS, centre
from server.picture.svg.symbols import PLAYER_COLOURS
from server.storage.db import db_session
from server.web.routes import _viewer

blp = Blueprint("game_files", __name__)


def _percent(value: float, whole: float) -> str:
    return f"{100 * value / whole:.2f}%"


@cache
def board_css() -> str:
    """Each hex's control a little smaller than the hex (neighbours never overlap), over it."""
    rules = [f".on-hex{{width:{_percent(HEX_WIDTH * 0.9, BOARD_WIDTH)};"
             f"height:{_percent(RADIUS * 1.4, BOARD_HEIGHT)}}}"]
    for row in range(1, ROWS + 1):
        for name in row_hexes(row):
            x, y = centre(name)
            rules.append(f".at-{name}{{left:{_percent(x - HEX_WIDTH * 0.45, BOARD_WIDTH)};"
                         f"top:{_percent(y - RADIUS * 0.7, BOARD_HEIGHT)}}}")
    for seat, colour in enumerate(PLAYER_COLOURS):
        rules.append(f".seat-{seat}{{background:{colour}}}")
    return "\n".join(rules) + "\n"


@blp.get("/board.css")
def board_stylesheet():
    return board_css(), 200, {"Content-Type": "text/css; charset=utf-8",
                              "Cache-Control": "public, max-age=86400"}


@blp.get("/games/<game_id>/export")
def download_log(game_id: str):
    """The whole log of a finished game, as GET /api/v1/games/<id>/export answers it, for the
    signed-in players (the API asks for a token) and anyone on a public game."""
    session = db_session()
    user, game, seat = _viewer(session, game_id)
    if game.status != "finished":
        fail(409, _("game %(game)s is not over: its log and seed are downloaded at the end",
                    game=game.id))
    body = ExportSchema().dump(export(session, game, user, seat is not None, True))
    return json.dumps(body, indent=1), 200, {
        "Content-Type": "application/json",
        "Content-Disposition": f'attachment; filename="game-{game.id}.json"',
        "Cache-Control": "private, no-store"}
