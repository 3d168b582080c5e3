"""/api/v1/games/{id}/...: playing a game: its view, the legal commands, posting a command,
the feed of events and the export at the end."""

from __future__ import annotations

import hashlib
import json
import time
from datetime import datetime
from typing import Any

from flask import current_app, make_response, request
from flask.views import MethodView
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

import engine
from engine import seeds
from server import i18n, wakeups
from server.api.docs import document_errors, location
from server.api.games import command_input, preconditions
from server.api.games.paths import game_path
from server.api.games.play_schemas import (
    CommandRequestSchema,
    CommandResultSchema,
    ExportQuerySchema,
    ExportSchema,
    FeedQuerySchema,
    FeedSchema,
    LegalSchema,
    ViewQuerySchema,
    ViewSchema,
)
from server.api.games.routes import E404, NOT_MODIFIED, actor, plain_json
from server.api.games.schemas import MAX_VERSION
from server.config import OPEN_WAITS_REFUSED
from server.games import lobby, posting, seeding, service
from server.games.cache import CACHE
from server.games.legality import legal_now, notes
from server.games.rows import GameRow
from server.games.views import VIEWS
from server.http.auth import SECURITY_OPTIONAL, SECURITY_REQUIRED
from server.http.caching import ETAG_HEADER, IF_NONE_MATCH, ConditionalHeadersSchema, conditional
from server.http.errors import fail, requester_language
from server.http.parsing import Blueprint
from server.i18n import N_, Said
from server.messages import service as messages
from server.storage.db import db_session
from server.storage.models import Command, Event, Game, utcnow

blp = Blueprint("play", __name__, description="Playing a game: the view, the legal commands, "
                                                "commands, the feed and the export")

IF_MATCH = {"in": "header", "name": "If-Match", "required": False, "schema": {"type": "string"},
            "description": "The version you decided against, quoted: \"12\". Give this or "
                           "`expected_version` in the body (neither: 428). Checked first: when "
                           "it does not match, nothing is played (412), whatever the body says."}
IDEMPOTENCY_KEY = {"in": "header", "name": "Idempotency-Key", "required": False,
                   "schema": {"type": "string", "maxLength": 200},
                   "description": "Retry safely: the same key and body answer the stored response"}
# flask-smorest replaces (does not extend) the parameters that @blp.arguments documents when a
# view lists its own, so a view with both lists its query parameters here too.
VERSION_QUERY = {"in": "query", "name": "version", "required": False,
                 "schema": {"type": "integer", "minimum": 1, "maximum": MAX_VERSION},
                 "description": "The view as it was after this many events (default: now)"}
VERSION_ETAG = {"ETag": {"schema": {"type": "string"},
                         "description": "The game version, quoted (\"12\"), with the order of "
                                        "the tiles and relics when it is not the default "
                                        "(\"12.region.category\"): a command's If-Match "
                                        "takes either"}}
COMMAND_ETAG = {"ETag": {"schema": {"type": "string"},
                         "description": "The game version after this command, quoted (\"13\"): "
                                        "the If-Match for your next command, and the ETag "
                                        "GET .../view gives for that version"}}


def version_etag(version: int) -> str:
    """The strong tag naming a game version: a command's ETag, and what If-Match takes."""
    return f'"{version}"'


def view_etag(version: int, tile_sort: str | None, relic_sort: str | None) -> str:
    """The view's ETag: its version, and the reader's display settings unless they are the
    accounts' default (gem, gem), so a cache never answers one order for another ("12",
    "12.region.gem"; a reader without an account sees the order dealt, "12.dealt.dealt")."""
    if (tile_sort, relic_sort) == ("gem", "gem"):
        return version_etag(version)
    return f'"{version}.{tile_sort or "dealt"}.{relic_sort or "dealt"}"'




@blp.route("/<game_id:game_id>/view")
class View(MethodView):
    @blp.arguments(ViewQuerySchema(), location="query")
    @blp.response(200, ViewSchema, headers=VERSION_ETAG)
    @blp.alt_response(304, description="Not modified: your ETag is the current version")
    @blp.doc(security=SECURITY_OPTIONAL, parameters=[VERSION_QUERY, IF_NONE_MATCH])
    @document_errors(401, 404, 409, 422, 429, e404=E404, e409="game k3x9q2ab has not started yet",
                     e422="game k3x9q2ab is at version 12; there is no version 40")
    def get(self, query: dict, game_id: str):
        """The game as you may see it (spectators: the public view). ``?version=N`` shows it as
        it was after N events. ETag is the version (with your tile and relic order when not the
        default); If-None-Match answers 304 when unchanged."""
        # On a plain connection, as the legal commands: a cold view's ORM session (the user,
        # the game and the seat as mapped objects) cost more than deriving its state.
        with posting.read() as connection:
            game, seat = posting.viewer_and_game(connection, game_id)
            if game.version == 0:
                fail(409, f"game {game.id} has not started yet", game_id=game.id)
            version = query.get("version", game.version)
            if version > game.version:
                fail(422, f"game {game.id} is at version {game.version}; there is no version "
                          f"{version}", current_version=game.version)
            # A version's view never changes, so ?version=N is as cacheable as now's; its
            # order is the reader's display settings', which the tag names too.
            sorts = posting.viewer_sorts(connection)
            etag = view_etag(version, sorts["tile_sort"], sorts["relic_sort"])
            if _etag_matches(request.headers.get("If-None-Match"), etag):
                response = make_response("", 304)
                response.headers["ETag"] = etag
                return response
            state = service.load_state(connection, game, version)

        # The same entry the game page reads (server/games/views.py): copied, as it is shared.
        body = {**VIEWS.view(game.id, version, state, seat, **sorts), "version": version}
        return plain_json(body, 200, {"ETag": etag})


def _etag_matches(header: str | None, etag: str) -> bool:
    """If-None-Match names `etag` (compared weakly, RFC 9110 13.1.2), or is `*`."""
    if not header:
        return False
    for tag in header.split(","):
        tag = tag.strip()
        if tag == "*":
            return True
        if tag.startswith("W/"):
            tag = tag[2:]
        if tag.strip('"') == etag.strip('"'):
            return True
    return False


@blp.route("/<game_id:game_id>/legal")
class Legal(MethodView):
    @blp.response(200, LegalSchema, headers=ETAG_HEADER)
    @blp.alt_response(304, description=NOT_MODIFIED)
    @blp.doc(security=SECURITY_REQUIRED, parameters=[IF_NONE_MATCH])
    @document_errors(401, 404, 429, e404=E404)
    def get(self, game_id: str):
        """Your legal commands now (empty when you are not to act). ETag and If-None-Match:
        304 when unchanged."""
        # The read that goes with command posts: on their plain connection (no ORM session).
        with posting.connect() as connection:
            caller = posting.caller_and_game(connection, game_id)
            game, my_seat = caller.game, caller.seat
            playing = game.status == "active" and my_seat is not None
            state = service.load_state(connection, game) if playing else None
            legal = legal_now(game, state, my_seat, utcnow())
        return conditional(plain_json({"version": game.version, "seat": my_seat, **legal}))


@blp.route("/<game_id:game_id>/commands")
class Commands(MethodView):
    @blp.arguments(CommandRequestSchema())
    @blp.response(201, CommandResultSchema, headers={**location(
        "/api/v1/games/{id}/events?after=N: the events the command caused"), **COMMAND_ETAG})
    @blp.doc(security=SECURITY_REQUIRED, parameters=[IF_MATCH, IDEMPOTENCY_KEY])
    @document_errors(400, 401, 403, 404, 409, 412, 413, 415, 422, 428, 429, e404=E404,
                     e403="command.seat is Bo's, not yours: you play as Ada (leave "
                          "command.seat out: it is yours by default)",
                     e409="the game is at version 12, you sent 11: refresh and retry",
                     e412="the game is at version 12, If-Match said 11: refresh and retry",
                     e422="you already sold gems this turn",
                     e428=preconditions.MISSING)
    def post(self, data: dict, game_id: str):
        """Play one command against the version you saw. Stale: 409 with
        ``details.current_version``; illegal: 422 with the engine's reason."""
        key = request.headers.get("Idempotency-Key")
        request_hash = _request_hash(game_id, data) if key is not None else None
        # No ORM session here (server/games/posting.py). Everything up to deciding only reads:
        # SQLite's write lock is taken for the writes alone (apply_command's version check
        # catches a command that lands in between).
        with posting.connect() as connection:
            caller = posting.caller_and_game(connection, game_id)
            game = caller.game
            if not caller.member:
                lobby.refuse_outsider(game)
            if key is not None:
                if not key.strip() or len(key) > 200:
                    fail(422, "Idempotency-Key must be 1 to 200 characters")
                stored = posting.stored_answer(connection, caller.user_id, key)
                if stored is not None:
                    if stored.request_hash != request_hash:
                        fail(422, f"Idempotency-Key {key!r} was used for another request: "
                                  "use a new key for a new command", key=key)
                    return _stored(game_id, stored)

            expected = preconditions.expected_version(data, game.version)
            if game.status == "open":
                fail(409, f"game {game.id} has not started yet", game_id=game.id,
                     current_version=game.version)
            if game.status == "finished":
                fail(409, f"game {game.id} is over", game_id=game.id,
                     current_version=game.version)
            if game.status != "active":
                fail(409, Said(N_("game {game} was {status}: it takes no more commands"), game=game.id,
                               status=i18n.status(game.status)),
                     game_id=game.id, current_version=game.version)
            state = service.load_state(connection, game)
            posting.start_writing(connection)
            now = utcnow()
            result = None
            try:
                command = data.get("command")
                if command is None:
                    command = command_input.from_notation(
                        data["notation"], caller.seat, state,
                        lambda: requester_language(
                            lambda: posting.chosen_language(connection, caller.user_id)))
                applied = _apply(connection, game, caller.seat, caller.user_id,
                                 command, expected, state, now)
                if key is not None:
                    result = _answer(game, applied, caller.seat, command, now)
                    posting.store_answer(connection, caller.user_id, key, request_hash, result,
                                         now)
                posting.commit(connection)
            except (service.StaleVersion, IntegrityError):
                posting.rollback(connection)
                posting.reading(connection)
                # A retry racing its own first attempt gets that attempt's answer.
                stored = key and posting.stored_answer(connection, caller.user_id, key)
                if stored and stored.request_hash == request_hash:
                    return _stored(game_id, stored)
                preconditions.lost_the_race(service.current_version(connection, game.id))
        CACHE.put(game.id, game.version, applied.state)
        # Built after the commit unless it is stored: SQLite's one writer is not kept waiting.
        answer = result or _answer(game, applied, caller.seat, command, now)
        return plain_json(answer, 201, {"Location": _events_path(game_id, answer),
                                        "ETag": version_etag(answer["version"])})


def _stored(game_id: str, stored: Any):  # noqa: ANN202
    """A stored idempotent answer, as it was first given."""
    headers = ({"Location": _events_path(game_id, stored.response),
                "ETag": version_etag(stored.response["version"])}
               if stored.status_code == 201 else {})
    return stored.response, stored.status_code, headers


def _events_path(game_id: str, answer: dict) -> str:
    """Where a command's events are read again: the feed after the version it was played at."""
    first = answer["events"][0]["seq"] if answer["events"] else answer["version"] + 1
    return f"{game_path(game_id)}/events?after={first - 1}"


def _request_hash(game_id: str, data: dict) -> str:
    canonical = json.dumps({"game": game_id, "body": data}, sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _apply(connection, game: GameRow, seat: int, user_id: int, command: dict,  # noqa: ANN001
           expected: int, state: Any, now: datetime) -> service.Applied:
    """The command applied; a rule's refusal in the caller's language (requester_language)."""
    def language() -> str:
        return requester_language(lambda: posting.chosen_language(connection, user_id))

    command, parsed = command_input.checked(connection, game, seat, command, language)
    try:
        applied = service.apply_command(connection, game, parsed, actor(user_id), now,
                                        state_before=state)
    except engine.GameOver as error:
        fail(409, i18n.refusal(error, language()), current_version=expected)
    except engine.RuleError as error:
        fail(422, i18n.refusal(error, language()), command=command)
    return applied


def _answer(game: GameRow, applied: service.Applied, seat: int, command: dict,
            now: datetime) -> dict:
    """The command's answer: its events as ``seat`` may see them, what it did unasked (notes),
    and what the caller may do next, so that a turn of several commands needs no read between
    them (the list GET /legal gives at this version: empty once the decision is not theirs)."""
    legal = legal_now(game, applied.state, seat, now)
    events = [_redacted(row, seat) for row in applied.rows]
    return {"version": game.version, "events": events,
            "notes": notes({**command, "seat": seat}, events),
            "legal": legal["commands"], "server_decides_at": legal["server_decides_at"],
            "undo_steps": legal["undo_steps"]}


def _redacted(row: dict | Event, seat: int | None) -> dict:

    if isinstance(row, Event):
        row = {"seq": row.seq, "type": row.type, "payload": row.payload, "actor": row.actor,
               "at": row.at}
    at = row["at"]
    return {"seq": row["seq"], "type": row["type"],
            "payload": engine.redact_event(row["payload"], seat), "actor": row["actor"],
            "at": at.isoformat() if hasattr(at, "isoformat") else at}


@blp.route("/<game_id:game_id>/events")
class Events(MethodView):
    @blp.arguments(FeedQuerySchema(), location="query")
    @blp.arguments(ConditionalHeadersSchema(), location="headers")
    @blp.response(200, FeedSchema, headers=ETAG_HEADER)
    @blp.alt_response(304, description=NOT_MODIFIED)
    @blp.doc(security=SECURITY_OPTIONAL)
    @document_errors(401, 404, 422, 429, e404=E404,
                     e422="invalid request: wait: Must be greater than or equal to 0 and less "
                          "than or equal to 30.")
    def get(self, query: dict, _headers: dict, game_id: str):
        """The events after ``after`` as you may see them, the oldest first, at most ``limit``;
        with ``wait``, waits up to that many seconds for the next one (long poll). ETag and
        If-None-Match: 304 when unchanged (after the wait)."""
        refused = request.environ.get("asgi.scope", {}).get(OPEN_WAITS_REFUSED)
        if refused is not None:
            fail(429, f"you already have {refused} open waits (events?wait=) on this server: "
                      "close one, or ask without wait", headers={"Retry-After": "1"},
                 limit=refused)
        session = db_session()
        user, game, seat = lobby.caller_and_game(session, game_id, required=False)
        my_seat = seat.seat if seat is not None else None
        after = query["after"]
        wait = min(query["wait"], current_app.config["LONG_POLL_MAX_SECONDS"])
        version = game.version
        if version <= after and wait > 0:
            # Served by plain WSGI (the ASGI front, server/asgi.py, waits without a thread and
            # only calls this with wait=0): this thread waits, but holds no connection.
            deadline = time.monotonic() + wait
            with wakeups.of().hub.thread_waiter(f"g:{game.id}", seen=after) as waiter:
                while True:
                    version = session.get(Game, game.id, populate_existing=True).version
                    session.commit()  # the connection goes back to the pool while waiting
                    left = deadline - time.monotonic()
                    if version > after or left <= 0:
                        break
                    waiter.wait(left)
        rows = session.exec(
            select(Event).where(Event.game_id == game.id, Event.seq > after,
                                Event.seq <= version)
            .order_by(Event.seq).limit(query["limit"])  # type: ignore[arg-type]
        ).all()
        return conditional(plain_json(
            {"version": version, "events": [_redacted(row, my_seat) for row in rows]}))


@blp.route("/<game_id:game_id>/export")
class Export(MethodView):
    @blp.arguments(ExportQuerySchema(), location="query")
    @blp.response(200, ExportSchema)
    @blp.doc(security=SECURITY_OPTIONAL)
    @document_errors(401, 404, 409, 422, 429, e404=E404,
                     e409="game k3x9q2ab is not over: the log and seed are exported at the end",
                     e422="invalid request: messages: must be true or false, not 'yes'")
    def get(self, query: dict, game_id: str):
        """The whole log, every command and the seed, once the game is over; with
        ``?messages=true`` the table talk you may read too."""
        session = db_session()
        user, game, seat = lobby.caller_and_game(session, game_id, required=False)
        if game.status != "finished":
            fail(409, f"game {game.id} is not over: the log and seed are exported at the end",
                 game_id=game.id)
        return export(session, game, user, seat is not None, query["messages"])


def export(session, game: Game, user, member: bool, with_messages: bool) -> dict:
    """A finished game's whole log, every command and the seed (GET .../export; the game page's
    download too); with the table talk `user` may read when `with_messages`."""
    events = session.exec(select(Event).where(Event.game_id == game.id)
                          .order_by(Event.seq)).all()  # type: ignore[arg-type]
    commands = session.exec(select(Command).where(Command.game_id == game.id)
                            .order_by(Command.version)).all()  # type: ignore[arg-type]
    state = service.load_state(session, game)
    info = lobby.game_json(session, game, user)
    talk = {}
    if with_messages:
        channels = messages.readable_channels(member)
        talk["messages"] = messages.listing(session, game, channels, limit=2**31 - 1)
    return {
        **talk,
        "game_id": game.id,
        "rules_version": game.rules_version,
        "options": lobby.engine_options(game),
        "seed": game.seed,
        "seed_hash": game.seed_hash,
        "seed_rule": game.seed_rule or seeds.SERVER_ONLY,
        "seed_contributions": seeding.contributions(lobby.members(session, game)),
        "players": info["players"],
        "commands": [{"version": c.version, "actor": c.actor, "command": c.command}
                     for c in commands],
        "events": [{"seq": e.seq, "type": e.type, "payload": e.payload, "actor": e.actor,
                    "at": e.at.isoformat()} for e in events],
        "outcome": engine.outcome(state).to_dict(),
    }
