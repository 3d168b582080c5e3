"""/api/v1/games: the lobby (create, list, join, invite, leave, start, come back) and the
game itself. Playing it (view, legal, commands, feed, export) is in play_routes.py."""


from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView
from sqlalchemy.exc import IntegrityError

from server import i18n
from server.api.docs import NO_SUCH_GAME, OUTSIDER, document_errors, location
from server.api.games.paths import game_path
from server.api.games.schemas import (
    GameCreatedSchema,
    GameCreateSchema,
    GameSchema,
    InvitationCreateSchema,
    InvitationSchema,
    JoinSchema,
)
from server.games import due_times, invitation_limits, listing, lobby, posting, service
from server.http.auth import SECURITY_OPTIONAL, SECURITY_REQUIRED, require_user
from server.http.caching import ETAG_HEADER, IF_NONE_MATCH, conditional
from server.http.errors import fail, requester_language
from server.http.parsing import Blueprint
from server.i18n import N_, Said
from server.ratings import derived
from server.storage.db import db_session
from server.storage.models import utcnow
from server.webhooks import registry as webhook_registry

blp = Blueprint("games", __name__, description="Games: the lobby and the game")

E404 = NO_SUCH_GAME
NOT_MODIFIED = "Not modified: your If-None-Match names the current answer"
GAMES_PAGE_SIZE = 20
GAMES_MAX_PAGE_SIZE = 100


def actor(user_id: int) -> str:
    return f"user:{user_id}"


def plain_json(payload: Any, status: int = 200, headers: dict[str, str] | None = None):
    """Answer ``payload`` as it is, without the response schema's dump: on the hot reads and the
    command post marshmallow cost more than the rest of the answer. Only for payloads already
    in their schema's shape (JSON types, the schema's keys);
    tests/server/api/games/test_plain_answers.py holds each equal to what its schema makes of
    it."""
    response = current_app.response_class(current_app.json.dumps(payload), status=status,
                                          mimetype="application/json")
    response.headers.update(headers or {})
    return response


@blp.route("")
class Games(MethodView):
    @blp.arguments(GameCreateSchema())
    @blp.response(201, GameCreatedSchema, headers=location("/api/v1/games/{id}: the game"))
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(400, 401, 413, 415, 422, 429,
                     e422="you have 10 open games, the most one player may have: start or "
                          "leave one of them before creating another")
    def post(self, data: dict):
        """Create a game; you take the first seat, and `bots` seats go to server-side bots. A game
        full from the start (solo, or you and bots only) starts at once."""
        user = require_user()
        session = db_session()
        now = utcnow()
        if data["seats"] > 1:
            invitation_limits.check_open_games(session, user)
        hook = data.get("webhook")
        if hook is not None:  # refused before anything is created
            url, format = webhook_registry.checked(hook["url"], hook.get("format"))
        game = lobby.create_game(session, user, data, now)
        if hook is not None:  # before the start: the first turn is told to it too
            hook = webhook_registry.set_webhook(session, game, user.id, url, format, now)
        if lobby.is_full(session, game):
            lobby.start_game(session, game, now, actor(user.id))
        session.commit()
        answer = derived.rated_game(session, lobby.game_json(session, game, user))
        if hook is not None:
            answer["webhook"] = webhook_registry.answer(hook, secret=True)
        return answer, {"Location": game_path(game.id)}

    @blp.response(200, GameSchema(many=True))
    @blp.paginate(page_size=GAMES_PAGE_SIZE, max_page_size=GAMES_MAX_PAGE_SIZE)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 422, 429,
                     e422="invalid request: page_size: Must be greater than or equal to 1 and "
                          f"less than or equal to {GAMES_MAX_PAGE_SIZE}.")
    def get(self, pagination_parameters):  # noqa: ANN001
        """Your games: those where it is your turn first, then by nearest deadline, a page at a
        time (``page_size``: 20 by default, at most 100; X-Pagination and Link say where the
        others are). Each person (and the Rhom of a solo game) carries their rating on the
        game's track."""
        # On a plain connection (server/games/posting.py): the ORM session, its mapped User and
        # its teardown cost a page of 20 games about as much as reading and writing them.
        with posting.read() as connection:
            user = posting.caller(connection)
            page, pagination_parameters.item_count = listing.games_page(
                connection, user, pagination_parameters.first_item,
                pagination_parameters.page_size)
            games = derived.with_ratings(derived.ratings(connection),
                                         lobby.games_json(connection, page, user))
        return plain_json([lobby.plain_game(game) for game in games])


@blp.route("/join")
class Join(MethodView):
    @blp.arguments(JoinSchema())
    @blp.response(200, GameSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(400, 401, 404, 409, 413, 415, 422, 429,
                     e404="no game has the join code 'x7k2': check it with whoever invited you",
                     e422="invalid request: code: Length must be between 1 and 32.",
                     e409="game k3x9q2ab is full (2 seats)")
    def post(self, data: dict):
        """Take a seat in an open game with its join code (and, if you like, name the stand-in
        that plays your turns here when their deadline passes)."""
        user = require_user()
        session = db_session()
        game = lobby.join(session, user, data["code"], utcnow(), data.get("stand_in"),
                          contribution=data.get("contribution"))
        session.commit()
        return derived.rated_game(session, lobby.game_json(session, game, user))


@blp.route("/<game_id:game_id>")
class GameResource(MethodView):
    @blp.response(200, GameSchema, headers=ETAG_HEADER)
    @blp.alt_response(304, description=NOT_MODIFIED)
    @blp.doc(security=SECURITY_OPTIONAL, parameters=[IF_NONE_MATCH])
    @document_errors(401, 404, 429, e404=E404)
    def get(self, game_id: str):
        """One game (public games need no token), each person with their rating on the game's
        track, as the lists show it. ETag and If-None-Match: 304 when unchanged."""
        session = db_session()
        user, game, _seat = lobby.caller_and_game(session, game_id, required=False)
        shown = derived.rated_game(session, lobby.game_json(session, game, user))
        return conditional(plain_json(lobby.plain_game(shown)))


@blp.route("/<game_id:game_id>/invitations")
class Invitations(MethodView):
    @blp.arguments(InvitationCreateSchema())
    @blp.response(201, InvitationSchema,
                  headers=location("/api/v1/games/{id}: the game the invitation is to"))
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(400, 401, 403, 404, 409, 413, 415, 422, 429, e403=OUTSIDER, e404=E404,
                     e409="game k3x9q2ab has already started",
                     e422="invalid request: email: Not a valid email address.",
                     e429="you have sent 20 invitations in the past hour, the most allowed: "
                          "you may invite again at 2026-12-01 10:41 UTC (in 13 minutes)")
    def post(self, data: dict, game_id: str):
        """Invite someone by email: they are sent the join code, within the invitation limits
        (``mailed`` and ``message`` say whether it was mailed; the join code is in the answer
        either way)."""
        session = db_session()
        user, game, seat = lobby.caller_and_game(session, game_id, required=True)
        lobby.require_member(game, seat)
        lobby.require_open(game)
        email = data["email"].strip().lower()
        now = utcnow()
        decision = invitation_limits.check(session, user, email, now)
        mailed = lobby.invite(session, game, user, email, current_app.config["BASE_URL"], now,
                              mail=decision.mail)
        session.commit()
        if decision.mail and not mailed:
            note = Said(N_("{email} was mailed this game's join code already"), email=email)
        else:
            note = decision.note or Said(N_("{email} is mailed the join code"), email=email)
        return ({"email": email, "join_code": game.join_code, "mailed": mailed,
                 "message": i18n.say(note, requester_language())},
                {"Location": game_path(game.id)})


@blp.route("/<game_id:game_id>/leave")
class Leave(MethodView):
    @blp.response(200, GameSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 403, 404, 409, 429, e403=OUTSIDER, e404=E404,
                     e409="game k3x9q2ab has already started: you can only leave before the start")
    def post(self, game_id: str):
        """Give up your seat before the game starts."""
        session = db_session()
        user, game, seat = lobby.caller_and_game(session, game_id, required=True)
        lobby.require_member(game, seat)
        game = lobby.leave(session, game_id, user)
        session.commit()
        return derived.rated_game(session, lobby.game_json(session, game, user))


@blp.route("/<game_id:game_id>/start")
class Start(MethodView):
    @blp.response(200, GameSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 403, 404, 409, 429, e403=OUTSIDER, e404=E404,
                     e409="waiting for 1 more player to join")
    def post(self, game_id: str):
        """Start the game once every seat is taken: seats ordered, decks shuffled, objectives
        dealt (all recorded as events)."""
        session = db_session()
        user, game, seat = lobby.caller_and_game(session, game_id, required=True)
        lobby.require_member(game, seat)
        lobby.require_open(game)
        try:
            lobby.start_game(session, game, utcnow(), actor(user.id))
            session.commit()
        except (service.StaleVersion, IntegrityError):
            session.rollback()
            fail(409, f"game {game.id} has already started", game_id=game.id)
        return derived.rated_game(session, lobby.game_json(session, game, user))


@blp.route("/<game_id:game_id>/back")
class Back(MethodView):
    @blp.response(200, GameSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 403, 404, 409, 429, e403=OUTSIDER, e404=E404,
                     e409="game k3x9q2ab is not being played: only an active game has absent "
                          "seats")
    def post(self, game_id: str):
        """Come back after missed deadlines: your seat is no longer absent (and its missed
        turns count from zero), so the server stops playing your turns at once."""
        session = db_session()
        user, game, seat = lobby.caller_and_game(session, game_id, required=True)
        seat = lobby.require_member(game, seat)
        if game.status != "active":
            fail(409, f"game {game.id} is not being played: only an active game has absent "
                      "seats", game_id=game.id, game_status=game.status)
        was_absent = seat.absent
        seat.absent = False
        seat.missed_turns = 0
        session.add(seat)
        if was_absent and game.current_seat == seat.seat:
            # An absent seat's turn is due at once; give the player the turn's full time instead.
            now = utcnow()
            game.turn_started_at = now
            session.flush()
            due_times.update_due_times(session, game, None, now)
        session.commit()
        return derived.rated_game(session, lobby.game_json(session, game, user))
