"""The community's pages: /open (the public games waiting for players, joining one, seeking a
game) and the Rematch button of a finished game's page. The rules and refusals are the core's
(server/seeking, server/games/rematch.py), as for the API."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _

from server.clock import now
from server.games import lobby, rematch
from server.games.pace import DEFAULT_PACE, PACES
from server.http.errors import fail
from server.ratings import derived
from server.seeking import open_games, seeks
from server.storage.db import db_session
from server.web.routes import _page_user, protect_forms, signed_in_user

OPEN_PAGE_SIZE = 20

blp = Blueprint("community_pages", __name__, template_folder="templates")
blp.before_request(protect_forms)


@blp.post("/games/<game_id>/rematch")
def ask_rematch(game_id: str):
    user = signed_in_user()
    session = db_session()
    game, seat = lobby.visible_game(session, game_id, user)
    new, _made = rematch.ask(session, game, seat, user, now(), current_app.config["BASE_URL"],
                             request.form.get("word"))
    session.commit()
    return redirect(url_for("pages.game_page", game_id=new.id), 303)


def _choice(name: str, allowed) -> str | None:
    raw = request.args.get(name) or None
    if raw is not None and raw not in allowed:
        fail(400, _("?%(name)s= takes one of %(allowed)s, not %(value)r", name=name,
                    allowed=", ".join(map(str, allowed)), value=raw))
    return raw


@blp.get("/open")
def open_page():
    user = _page_user()
    session = db_session()
    seats = _choice("seats", ("2", "3", "4"))
    pace = _choice("pace", tuple(PACES))
    page = request.args.get("page", "1")
    if not page.isdigit() or not 1 <= int(page) <= 10_000:
        fail(400, _("?page= takes a page number from 1, not %(value)r", value=page))
    page_number = int(page)
    rows, total = open_games.open_games(session, (page_number - 1) * OPEN_PAGE_SIZE,
                                        OPEN_PAGE_SIZE, seats=int(seats) if seats else None,
                                        pace=pace)
    listed = lobby.games_json(session, rows, user)
    codes = {game.id: game.join_code for game in rows}
    games = derived.with_ratings(derived.ratings(session),
                                 [{**game, "join_code": codes[game["id"]]} for game in listed])
    return render_template(
        "open_games.html", user=user, games=games, paces=tuple(PACES),
        filters={"seats": int(seats) if seats else None, "pace": pace}, page=page_number,
        more=page_number * OPEN_PAGE_SIZE < total,
        seeks=seeks.seeks_of(session, user) if user else [],
        waiting=seeks.waiting_counts(session) if user else {})


@blp.post("/seeks")
def seek_from_page():
    user = signed_in_user()
    seats = request.form.get("seats", "")
    pace = request.form.get("pace") or DEFAULT_PACE
    if seats not in ("2", "3", "4") or pace not in PACES:
        fail(400, _("choose 2, 3 or 4 players and a pace of 1d, 3d, 7d or none"))
    session = db_session()
    made = seeks.seek(session, user, int(seats), pace, request.form.get("word"), now())
    session.commit()
    if made.game_id is not None:
        return redirect(url_for("pages.game_page", game_id=made.game_id), 303)
    return redirect(url_for("community_pages.open_page"), 303)


@blp.post("/seeks/<int:seek_id>/cancel")
def cancel_seek(seek_id: int):
    user = signed_in_user()
    session = db_session()
    seeks.cancel(session, user, seek_id)
    session.commit()
    return redirect(url_for("community_pages.open_page"), 303)
