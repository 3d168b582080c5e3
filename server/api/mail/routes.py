"""/api/v1/mail: the one-click unsubscribe link of every email's List-Unsubscribe (RFC 8058).

The mail client POSTs `List-Unsubscribe=One-Click` to the link without any login: the link's
signed token says who (server/mail/reply_addresses.py), and stops working when the user rotates
their API token. A GET changes nothing (link checkers and previews fetch links)."""

from __future__ import annotations

from flask import current_app
from flask.views import MethodView

from server.api.docs import document_errors
from server.api.mail.schemas import UnsubscribedSchema
from server.http.errors import fail
from server.http.parsing import Blueprint
from server.mail import reply_addresses
from server.storage.db import db_session
from server.storage.models import User

blp = Blueprint("mail", __name__, description="Mail: one-click unsubscribe (RFC 8058)")
INVALID = ("this unsubscribe link is not valid (the account's API token was rotated since?): "
           "use the link of a newer email, or `iridescia prefs --email none`")


def _user(token: str) -> User:
    try:
        claims = reply_addresses.read(token)
    except reply_addresses.BadToken:
        fail(404, INVALID)
    user = db_session().get(User, claims.user_id) if claims.purpose == "prefs" else None
    if user is None or not reply_addresses.verify(current_app.config["SECRET_KEY"], token,
                                            user.token_hash):
        fail(404, INVALID)
    return user


@blp.route("/unsubscribe/<token>")
class Unsubscribe(MethodView):
    @blp.response(200, UnsubscribedSchema)
    @document_errors(404, 429, e404=INVALID)
    def post(self, token: str):
        """Unsubscribe from every email (what a mail client's one-click unsubscribe sends)."""
        user = _user(token)
        user.email_preference = "none"
        session = db_session()
        session.add(user)
        session.commit()
        return {"email": "none", "message": f"{user.email} gets no more email from this server"}

    @blp.response(200, UnsubscribedSchema)
    @document_errors(404, 429, e404=INVALID)
    def get(self, token: str):
        """What the link does, without doing it: POST to it to unsubscribe."""
        user = _user(token)
        return {"email": user.email_preference,
                "message": f"POST to this address to stop all email to {user.email}"}
