"""The lobby on the web: create a game (as POST /api/v1/games does, its form fields named as that
body names them), play solo against the Rhom in one click, invite by address or share a join
link, join, leave and start. The rules and refusals are the API's (server/games/lobby.py,
server/games/invitation_limits.py); the pages add the sign-in and the forms' CSRF token."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _
from marshmallow import ValidationError
from sqlalchemy.exc import IntegrityError

import engine
from server import i18n
from server.api.games.schemas import BOT_POLICIES, GameCreateSchema
from server.games import invitation_limits, lobby, service
from server.games.pace import DEFAULT_PACE, PACES
from server.http.errors import fail
from server.storage.db import db_session
from server.storage.models import Game, User, utcnow
from server.users import sign_in
from server.web.page_filters import page_lang
from server.web.routes import protect_forms, signed_in_user

blp = Blueprint("lobby_pages", __name__)
blp.before_request(protect_forms)

CHECKBOXES = ("rhom", "public", "variants.catapult_4th")
NUMBERS = ("seats", "bots", "variants.mining_cost")


def _body(form) -> dict:
    """The form as the JSON body of POST /api/v1/games: dotted names nest (variants.mining_cost),
    numbers are numbers, a checkbox is true when sent."""
    body: dict = {}
    for name in ("seats", "bots", "bot_policy", "pace", "rules_version",
                 "variants.mining_cost", "variants.leftover_gems", *CHECKBOXES):
        raw = form.get(name)
        if name in CHECKBOXES:
            value: object = raw is not None
        elif raw in (None, ""):
            continue
        elif name in NUMBERS:
            if not raw.strip().isdigit():
                fail(400, _("%(field)s is a whole number, not %(value)r: correct it and create "
                            "the game again", field=name.split(".")[-1].replace("_", " "),
                            value=raw))
            value = int(raw)
        else:
            value = raw
        where = body
        *parents, last = name.split(".")
        for parent in parents:
            where = where.setdefault(parent, {})
        where[last] = value
    return body


def _load(body: dict) -> dict:
    try:
        return GameCreateSchema().load(body)
    except ValidationError as error:
        fields = "; ".join(f"{field}: {' '.join(map(str, _flat(words)))}"
                           for field, words in error.messages.items())
        fail(422, _("this game cannot be created (%(fields)s): change it and try again",
                    fields=fields))


def _flat(words) -> list:
    if isinstance(words, dict):
        return [w for value in words.values() for w in _flat(value)]
    return list(words) if isinstance(words, list) else [words]


def create(session, user: User, data: dict) -> Game:
    now = utcnow()
    if data["seats"] > 1:
        invitation_limits.check_open_games(session, user)
    game = lobby.create_game(session, user, data, now)
    if lobby.is_full(session, game):
        lobby.start_game(session, game, now, f"user:{user.id}")
    session.commit()
    return game


@blp.get("/games/new")
def new_game_form():
    user = signed_in_user()
    return render_template("new_game.html", user=user, paces=list(PACES), default_pace=DEFAULT_PACE,
                           policies=BOT_POLICIES, rules_versions=engine.SUPPORTED_VERSIONS,
                           rules_version=engine.RULES_VERSION)


@blp.post("/games/new")
def new_game():
    """The lobby's form (or the one-click solo game): a game as POST /api/v1/games makes it."""
    user = signed_in_user()
    session = db_session()
    game = create(session, user, _load(_body(request.form)))
    return redirect(url_for("pages.game_page", game_id=game.id), 303)


@blp.get("/join/<code>")
def join_link(code: str):
    """A shared join link: the game's lobby with a button to take the seat (the sign-in or
    register page first for anyone not signed in)."""
    user = sign_in.page_user(db_session())
    return render_template("join_page.html", user=user, code=code)


def _member_game(game_id: str) -> tuple[object, User, Game]:
    session = db_session()
    user = signed_in_user()
    game, seat = lobby.visible_game(session, game_id, user)
    lobby.require_member(game, seat)
    return session, user, game


@blp.post("/games/<game_id>/invite")
def invite(game_id: str):
    """Invite by address: the join code mailed, within the invitation limits."""
    session, user, game = _member_game(game_id)
    lobby.require_open(game)
    email = (request.form.get("email") or "").strip().lower()
    if "@" not in email or len(email) > 254 or any(c.isspace() for c in email):
        fail(400, _("give the email address of the player to invite, like bob@example.org"))
    now = utcnow()
    decision = invitation_limits.check(session, user, email, now)
    mailed = lobby.invite(session, game, user, email, current_app.config["BASE_URL"], now,
                          mail=decision.mail)
    session.commit()
    note = (i18n.say(decision.note, page_lang())
            or _("%(email)s is mailed the join code", email=email)) \
        if mailed or not decision.mail \
        else _("%(email)s was mailed this game's join code already", email=email)
    link = f"{current_app.config['BASE_URL'].rstrip('/')}/join/{game.join_code}"
    return render_template("message.html", user=user, title=_("Invitation"),
                           message=_("%(note)s. Or share the join link: %(link)s",
                                     note=note.rstrip(".。"), link=link),
                           back=url_for("pages.game_page", game_id=game.id))


@blp.post("/games/<game_id>/leave")
def leave(game_id: str):
    session, user, game = _member_game(game_id)
    lobby.leave(session, game.id, user)
    session.commit()
    return redirect(url_for("pages.home"), 303)


@blp.post("/games/<game_id>/start")
def start(game_id: str):
    session, user, game = _member_game(game_id)
    lobby.require_open(game)
    try:
        lobby.start_game(session, game, utcnow(), f"user:{user.id}")
        session.commit()
    except (service.StaleVersion, IntegrityError):
        session.rollback()
    return redirect(url_for("pages.game_page", game_id=game.id), 303)
