"""/api/v1/users: register, confirm the address, recover a token, who am I, rotate the token,
preferences.

Registering answers alike whether or not the address has an account (202, "a mail is on its
way", the same body): the token travels by mail only. A new address gets the link that
confirms it, and confirming (`POST /users/verify`) answers the account's token, a new one; a
taken address's owner gets a link to a new token. Recovery always answers 202 too."""

from __future__ import annotations

from flask.views import MethodView

from server import clock
from server.api.docs import document_errors, location
from server.api.users.schemas import (
    AcceptedSchema,
    CodeSchema,
    ConfirmedSchema,
    NewUserSchema,
    PreferencesSchema,
    RecoverSchema,
    TokenSchema,
    UserCreateSchema,
    UserSchema,
)
from server.games.seat_kinds import stand_in
from server.http.auth import SECURITY_REQUIRED, authenticated, hash_token, new_token, require_user
from server.http.errors import fail, requester_language
from server.http.parsing import Blueprint
from server.http.rate_limits import KNOWN_TOKENS, spend_account_request
from server.storage.db import db_session
from server.storage.models import User, utcnow
from server.users import account_mail, mail_choices, verification
from server.users.accounts import by_email, register
from server.users.mail_status import email_status

blp = Blueprint("users", __name__, description="Accounts and API tokens")

ME = "/api/v1/users/me"
LOCATION_HEADER = location(f"{ME}: the account")


def user_json(user: User) -> dict:
    return {"id": user.id, "name": user.name, "email": user.email,
            "verified": user.verified_at is not None,
            "email_status": email_status(user),
            "preferences": {"email": user.email_preference,
                            "removals": "choose" if user.choose_removals else "automatic",
                            "stand_in": stand_in(user.stand_in),
                            "digest_hour": user.digest_hour, "quiet_hours": user.quiet_hours,
                            "time_zone": user.time_zone, "language": user.language,
                            "tile_sort": user.tile_sort, "relic_sort": user.relic_sort}}


def on_its_way(email: str) -> str:
    """The answer to every registration, whether or not the address had an account."""
    return (f"a mail is on its way to {email}: open its link (or run the `iridescia confirm "
            "--code CODE` it shows) to confirm the address and get your API token; until then "
            "the address gets no other mail. If the address already had an account, the mail "
            "has a link to a new token instead.")


@blp.route("")
class Users(MethodView):
    @blp.arguments(UserCreateSchema())
    @blp.response(202, AcceptedSchema)
    @document_errors(400, 413, 415, 422, 429,
                     e422="invalid request: email: Not a valid email address.")
    def post(self, data: dict):
        """Register. The answer is the same whether or not the address has an account: the
        API token travels by mail only. A new address is mailed a link that confirms it and
        gives the token (`POST /users/verify`); an address that has an account, its owner a
        link to a new token (`POST /users/recover/confirm`)."""
        spend_account_request()
        register(db_session(), data["name"], data["email"], utcnow(),
                 language=requester_language())
        return {"message": on_its_way(data["email"])}


@blp.route("/verify")
class Verify(MethodView):
    @blp.arguments(CodeSchema())
    @blp.response(200, ConfirmedSchema)
    @document_errors(400, 413, 415, 422, 429,
                     e422="this link has expired (links are good for 48 hours): ask for a new "
                          "one: `iridescia confirm --resend`")
    def post(self, data: dict):
        """Confirm your address with the code of the link mailed to it. Confirming a new
        account answers its API token (once; any token made before stops working); an address
        confirmed before (confirming it again after its mail bounced) keeps its token."""
        session = db_session()
        user, token = verification.confirm(session, data["code"], utcnow())
        session.commit()
        if token is not None:
            authenticated(user.token_hash, user.id)
        return {**user_json(user), "token": token, "message": (
            f"{user.email} is confirmed: here is your API token, shown once (keep it secret)"
            if token is not None else
            f"{user.email} is confirmed; your token is unchanged (lost it? `iridescia recover "
            "--email ADDRESS`)")}


@blp.route("/recover")
class Recover(MethodView):
    @blp.arguments(RecoverSchema())
    @blp.response(202, AcceptedSchema)
    @document_errors(400, 413, 415, 422, 429,
                     e422="invalid request: email: Not a valid email address.")
    def post(self, data: dict):
        """Lost your token? If the address has an account, it is mailed a link to a new one
        (the answer is the same either way)."""
        spend_account_request()
        session = db_session()
        user = by_email(session, data["email"])
        if user is not None:
            account_mail.recovery(session, user, utcnow())
            session.commit()
        return {"message": f"if {data['email']} has an account, a mail with a link to a new "
                           "token is on its way to it"}


@blp.route("/recover/confirm")
class RecoverConfirm(MethodView):
    @blp.arguments(CodeSchema())
    @blp.response(201, NewUserSchema, headers=LOCATION_HEADER)
    @document_errors(400, 413, 415, 422, 429,
                     e422="this link was used already (or the token changed since it was "
                          "sent): ask for a new one with `iridescia recover --email ADDRESS`")
    def post(self, data: dict):
        """Trade the code of a recovery link for a new token (once; the old token stops
        working). It confirms the address too."""
        session = db_session()
        user, token = verification.recover(session, data["code"], utcnow())
        session.commit()
        authenticated(user.token_hash, user.id)
        return ({"id": user.id, "name": user.name, "email": user.email, "token": token,
                 "verified": True, "message": "a new token: keep it secret"}, {"Location": ME})


@blp.route("/me")
class Me(MethodView):
    @blp.response(200, UserSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 429)
    def get(self):
        """Your account."""
        return user_json(require_user())


@blp.route("/me/verification")
class Verification(MethodView):
    @blp.response(202, AcceptedSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 409, 429, e409="ada@example.org is confirmed already")
    def post(self):
        """Mail a new confirmation link to your address."""
        user = require_user()
        if user.verified_at is not None and user.email_bouncing_at is None:
            fail(409, f"{user.email} is confirmed already")
        session = db_session()
        if not account_mail.confirmation(session, user, utcnow()):
            fail(429, f"{user.email} has been sent the most account mails a day already: "
                      "use the last link, or try again tomorrow")
        session.commit()
        return {"message": f"a new confirmation link is on its way to {user.email}"}


@blp.route("/me/token")
class Token(MethodView):
    @blp.response(201, TokenSchema, headers=LOCATION_HEADER)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 429)
    def post(self):
        """Rotate your API token: the new one is returned once, the old one stops working."""
        user = require_user()
        token = new_token()
        KNOWN_TOKENS.forget(user.token_hash)
        user.token_hash = hash_token(token)
        session = db_session()
        session.add(user)
        session.commit()
        authenticated(user.token_hash, user.id)
        return {"token": token}, {"Location": ME}


@blp.route("/me/preferences")
class Preferences(MethodView):
    @blp.arguments(PreferencesSchema())
    @blp.response(200, UserSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(400, 401, 413, 415, 422, 429,
                     e422="invalid request: email: Must be one of: every_turn, reminders, none.")
    def patch(self, data: dict):
        """Set your preferences: which mail (every turn, a daily digest, reminders only, none),
        the digest's hour, quiet hours and time zone, whether you choose your own removal
        turns, your stand-in (the bot level that plays your turn when its deadline passes),
        your language (en, ja) and how your tiles and relics are sorted. A game of your own
        choice: PUT /games/{id}/notifications."""
        user = require_user()
        session = db_session()
        if "removals" in data:
            user.choose_removals = data["removals"] == "choose"
        if "stand_in" in data:
            user.stand_in = data["stand_in"]
        if "time_zone" in data:
            user.time_zone = data["time_zone"]
        if "quiet_hours" in data:
            user.quiet_hours = data["quiet_hours"] or None
        for choice in ("language", "tile_sort", "relic_sort"):
            if choice in data:
                setattr(user, choice, data[choice])
        mail_choices.choose(session, user, data.get("email", user.email_preference), clock.now(),
                       digest_hour=data.get("digest_hour"))
        session.add(user)
        session.commit()
        return user_json(user)
