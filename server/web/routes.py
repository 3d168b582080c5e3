"""The pages: home (/), signing in and out, registering, a game's page and playing from it
(pausing and vacations: time_away.py).

Server-rendered with Jinja2; everything works without JavaScript. Errors are pages too (see
server/web/__init__.py): ``fail(status, message)`` as in the API.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _
from marshmallow import ValidationError
from sqlmodel import select

import engine
from server import clock, i18n
from server.api.users.schemas import UserCreateSchema
from server.games import listing, lobby, service
from server.http.errors import fail
from server.http.rate_limits import spend_account_request
from server.messages import service as messages
from server.notifications.context import seat_names as mail_seat_names
from server.picture import cache as pictures
from server.picture.raster import board_png
from server.plans import store as plans
from server.ratings import derived
from server.storage.db import db_session
from server.storage.models import Game, Outbox, User, utcnow
from server.users import account_mail, accounts, sign_in
from server.vacations import away
from server.web import page_filters
from server.web.commands import name_or_id
from server.web.csrf import csrf
from server.web.game_page import lobby_context, page_context, seat_names, stories
from server.web.language import page_words
from server.web.page_filters import page_lang

blp = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
                static_url_path="/static/web")


@blp.before_request
def protect_forms() -> None:
    """Every page form carries the session's CSRF token (Flask-WTF): another site's page cannot
    post in a signed-in player's name."""
    if request.method == "POST":

        csrf.protect()

page_filters.install(blp)


@blp.app_template_filter("capitalize_first")
def capitalize_first(words: str) -> str:
    """"the Rhom" at the start of a sentence: "The Rhom" (a player's own name is left as it is
    but its first letter)."""
    return words[:1].upper() + words[1:]




def _page_user() -> User | None:
    return sign_in.page_user(db_session())


def signed_in_user() -> User:
    """The page's signed-in player; 401 saying how to sign in for anyone else."""
    user = _page_user()
    if user is None:
        fail(401, _("sign in first: open the link in one of your emails, or ask for one on the "
                    "home page"))
    return user


@blp.get("/")
def home():
    user = _page_user()
    games, vacation = [], None
    if user is not None:
        session = db_session()
        games = derived.with_ratings(derived.ratings(session), lobby.games_json(
            session, listing.games_of(session, user), user))
        vacation = away.summary(session, user, clock.now())
    return render_template("home.html", user=user, games=games, vacation=vacation)


@blp.post("/sign-in")
def ask_for_link():
    """Mail a sign-in link to a registered address; the same answer for any other address, so
    the page tells nobody who plays here."""
    email = (request.form.get("email") or "").strip().lower()
    if not email or "@" not in email or len(email) > 254:
        fail(400, _("give the email address you registered with, like ada@example.org"))
    spend_account_request()  # it mails an address the caller chose: the client's hourly limit
    session = db_session()
    user = session.exec(select(User).where(User.email == email)).first()
    now = utcnow()
    if user is not None and not _link_sent_lately(session, user, now) \
            and account_mail.under_the_daily_cap(session, user, now):
        link = sign_in.magic_link(user.id, user.token_hash, "/")
        account_mail.sign_in_link(session, user, link, current_app.config["MAGIC_LINK_HOURS"],
                                  now)  # in the account's language
        session.commit()
    hours = current_app.config["MAGIC_LINK_HOURS"]
    return render_template("message.html", title=_("Check your email"), message=_(
        "If that address is registered, a sign-in link is on its way to it. It works for "
        "%(hours)s hours.", hours=hours))


SIGN_IN_MAIL_EVERY = timedelta(minutes=1)


def _link_sent_lately(session, user: User, now) -> bool:
    """At most one sign-in mail a minute per address: the form cannot be used to flood it."""
    return session.exec(select(Outbox.id).where(
        Outbox.kind == "sign_in", Outbox.user_id == user.id,
        Outbox.created_at > now - SIGN_IN_MAIL_EVERY)).first() is not None


def _usable_link(session, token: str) -> tuple[User, str]:
    try:
        user, page = sign_in.read_magic_link(token, lambda user_id: session.get(User, user_id))
        if sign_in.link_used(session, token):
            raise sign_in.LinkRefused(sign_in.USED)
    except sign_in.LinkRefused as refused:
        fail(403, refused.args[0])  # said in the page's language
    return user, page


@blp.get("/sign-in/<token>")
def show_link(token: str):
    """A sign-in link opens a page with a button: following a link signs nobody in by itself
    (a GET never writes, and another site cannot sign a browser in to its own account)."""
    user, _page = _usable_link(db_session(), token)
    return render_template("sign_in_link.html", name=user.name, action=request.path)


@blp.post("/sign-in/<token>")
def follow_link(token: str):
    session = db_session()
    user, page = _usable_link(session, token)
    try:
        sign_in.sign_in(session, user, utcnow(), link=token)
    except sign_in.LinkRefused as refused:
        fail(403, refused.args[0])
    session.commit()
    return redirect(page, 303)


@blp.post("/sign-out")
def sign_out():
    session = db_session()
    sign_in.sign_out(session, utcnow())
    session.commit()
    return redirect(url_for("pages.home"), 303)


@blp.route("/register", methods=["GET", "POST"])
def register():
    """Make an account from the page: the answer is the same whether or not the address has an
    account (check your mail); the mailed link confirms the address, signs the browser in and
    shows the API token once (server/web/account_pages.py)."""
    if request.method == "GET":
        return render_template("register.html", join=request.args.get("join", ""))
    try:  # the API's rules for a name and an address
        data = UserCreateSchema().load({"name": request.form.get("name") or "",
                                        "email": request.form.get("email") or ""})
    except ValidationError as error:
        fields = "; ".join(f"{field}: {' '.join(map(str, words))}"
                           for field, words in error.messages.items())
        fail(400, _("this is not a name and an email address (%(fields)s): correct it and retry",
                    fields=fields))
    spend_account_request()
    accounts.register(db_session(), data["name"], data["email"], utcnow(),
                      join=request.form.get("join") or None, language=page_lang())
    # The same page whether or not the address had an account: nobody learns who is here.
    return render_template("message.html", title=_("Check your email"), message=_(
        "A mail is on its way to %(email)s. If the address already had an account, its link "
        "gives you a new token; otherwise open its link to confirm the address.",
        email=data["email"]))


@blp.post("/join")
def join_game():
    """Take a seat with a join code (the invitation's), as `iridescia join CODE` does."""
    user = signed_in_user()
    code = (request.form.get("code") or "").strip()
    if not code:
        fail(400, _("give the join code from your invitation, like 3bsy9yvi43"))
    session = db_session()
    game = lobby.join(session, user, code, utcnow(), contribution=request.form.get("word"))
    session.commit()
    return redirect(url_for("pages.game_page", game_id=game.id), 303)


def _viewer(session, game_id: str) -> tuple[User | None, Game, int | None]:
    user = _page_user()
    game, seat = lobby.visible_game(session, game_id, user)
    return user, game, seat.seat if seat is not None else None


def _replay_position(game: Game) -> tuple[int | None, int | None]:
    """(?at=, ?turn=): the replay's event number or its turn's place in the list of turns."""
    at, turn = request.args.get("at") or None, request.args.get("turn") or None
    if at is not None and (not at.isdigit() or not 1 <= int(at) <= max(game.version, 1)):
        fail(400, _("?at= takes an event number from 1 to %(last)s, not %(value)r",
                    last=game.version, value=at))
    if turn is not None and (not turn.isdigit() or int(turn) < 1):
        fail(400, _("?turn= takes a turn's place in the list of turns (1 is the first), not "
                    "%(value)r", value=turn))
    return (int(at) if at else None), (int(turn) if turn else None)


def render_game(session, game: Game, user: User | None, seat: int | None, **extra):
    if game.status == "open":  # seats are numbered at the start: membership is the Seat row
        member = lobby.seat_of(session, game, user) if user is not None else None
        return render_template("lobby.html", **lobby_context(session, game, user, member))
    at, turn = _replay_position(game)
    context = page_context(session, game, user, seat, at, turn)
    if game.status == "finished":
        context["seed_matches"] = service.seed_hash(game.seed) == game.seed_hash
    return render_template("game.html", **context, **extra)


@blp.get("/games/<game_id>")
def game_page(game_id: str):
    session = db_session()
    user, game, seat = _viewer(session, game_id)
    return render_game(session, game, user, seat)


@blp.get("/games/<game_id>/version")
def game_version(game_id: str):
    """What the page's script polls: the game's version and status (the page redraws itself
    when they change), as the viewer may see the game."""
    session = db_session()
    _user, game, _seat = _viewer(session, game_id)
    return ({"version": game.version, "status": game.status},
            200, {"Cache-Control": "no-store"})


@blp.get("/games/<game_id>/board.png")
def board_picture(game_id: str):
    """The hex board now as a picture (the daily digest links to it): the public board, the
    same picture the mails of this version carry, drawn once per version (server/picture)."""

    session = db_session()
    user, game, _seat = _viewer(session, game_id)
    if game.version == 0:
        fail(404, _("game %(game)s has not started: it has no board yet", game=game.id))
    # Named as the mails of this version name them: one picture for both. The names are read
    # only to draw it (once a version), not for every request.
    picture = pictures.board_picture(game.id, game.version, lambda: board_png(
        engine.view(service.load_state(session, game), None),
        mail_seat_names(session, game, game.version)))
    return picture, 200, {"Content-Type": "image/png", "Cache-Control": "private, no-cache"}


def _posted_command(seat: int) -> tuple[dict, int]:
    try:
        command = json.loads(request.form.get("command") or "")
        expected = int(request.form.get("expected_version") or "")
    except ValueError:
        fail(400, _("this form lacks its command or version: reload the game page and choose "
                    "again"))
    if not isinstance(command, dict):
        fail(400, _("this form's command is not a command: reload the game page and choose "
                    "again"))
    if command.setdefault("seat", seat) != seat:
        fail(403, _("this form plays for another player: reload the game page and choose again"))
    return command, expected


def _conflict(session, game: Game, user: User, seat: int, expected: int):
    """409: the game moved on since the page was drawn; say what changed, offer the new
    choices."""
    session.rollback()
    game = session.get(Game, game.id, populate_existing=True)
    _info, names = seat_names(session, game, user)
    changed = stories(session, game, seat, names, expected, game.version)
    return render_game(session, game, user, seat,
                       conflict={"expected": expected, "changed": changed}), 409


BACK_TO = ("board", "decide", "roll", "players", "market", "items", "relics")
_CODE = re.compile(r"\s*[(（][a-z_]+[)）]$")


def refusal(error: Exception) -> str:
    """A rule's refusal in a player's words, in the page's language: the command's code name at
    its end dropped, card ids named."""
    text = i18n.refusal(error, page_lang()) if isinstance(error, engine.RuleError) else str(error)
    words = _CODE.sub("", text)
    return re.sub(r"\b[a-z]+(?:_[a-z]+)+\b", lambda m: name_or_id(m.group(0), page_words()), words)


@blp.post("/games/<game_id>/play")
def play(game_id: str):
    """One command from a form, through the API's command path (service.apply_command)."""

    session = db_session()
    user, game, seat = seated_viewer(session, game_id)
    command, expected = _posted_command(seat)
    if game.status != "active" or expected != game.version:
        return _conflict(session, game, user, seat, expected)
    try:
        parsed = engine.command_from_dict(command)
    except (engine.RuleError, KeyError, TypeError, ValueError) as error:
        fail(422, _("this is not a valid command (%(error)s): reload the page and choose again",
                    error=i18n.refusal(error, page_lang())
                    if isinstance(error, engine.RuleError) else error))
    try:
        service.apply_command(session, game, parsed, f"user:{user.id}", utcnow())
        session.commit()
    except service.StaleVersion:
        return _conflict(session, game, user, seat, expected)
    except engine.GameOver:
        return _conflict(session, game, user, seat, expected)
    except engine.RuleError as error:
        session.rollback()
        fail(422, _("%(refusal)s: choose again from the game page", refusal=refusal(error)))
    back = request.form.get("back")
    anchor = "#" + back if back in BACK_TO else "#board"
    return redirect(url_for("pages.game_page", game_id=game.id) + anchor, 303)


@blp.post("/games/<game_id>/messages")
def post_message(game_id: str):
    """Say something from the page's form (the API's rules: server/messages/service.py)."""

    session = db_session()
    user = signed_in_user()
    game, seat = lobby.visible_game(session, game_id, user)
    try:
        messages.post(session, game, user, seat is not None, request.form.get("text") or "",
                      utcnow(), messages.Limits.of(current_app.config),
                      channel=request.form.get("channel") or None)
    except messages.MessageRefused as error:
        session.rollback()
        fail(error.status, _("%(refusal)s (your message was not posted: go back to keep its "
                             "text)", refusal=error.message))
    session.commit()
    return redirect(url_for("pages.game_page", game_id=game.id) + "#talk", 303)


def seated_viewer(session, game_id: str) -> tuple[User, Game, int]:
    """The signed-in player, the game and their seat: 401 signed out, 403 not seated."""
    user, game, seat = _viewer(session, game_id)
    if user is None:
        signed_in_user()  # the 401 that says how to sign in
    if seat is None:
        fail(403, _("you do not play in game %(game)s", game=game.id))
    return user, game, seat


def seated_player(session, game_id: str) -> tuple[User, Game]:
    user, game, _seat = seated_viewer(session, game_id)
    return user, game


@blp.post("/games/<game_id>/plan")
def set_plan(game_id: str):
    """The game page's plan form: PUT /api/v1/games/<id>/plan's checks (server/plans/)."""

    session = db_session()
    user, game = seated_player(session, game_id)
    _user, _game, seat = _viewer(session, game_id)
    try:
        plans.save(session, game, seat, user.id, (request.form.get("lines") or "").splitlines(),
                   utcnow(), "page")
    except plans.PlanRefused as error:
        session.rollback()
        fail(error.status, _("%(refusal)s (your plan was not kept: go back to keep its text)",
                             refusal=i18n.say(error.message, page_lang())))
    session.commit()
    return redirect(url_for("pages.game_page", game_id=game.id) + "#plan", 303)


@blp.post("/games/<game_id>/plan/remove")
def remove_plan(game_id: str):

    session = db_session()
    _user, game, seat = _viewer(session, game_id)
    seated_player(session, game_id)
    plans.clear(session, game.id, seat)
    session.commit()
    return redirect(url_for("pages.game_page", game_id=game.id), 303)
