"""/api/v1/users: register, who am I, rotate the token, preferences."""

from __future__ import annotations

from flask.views import MethodView
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from server.auth import SECURITY_REQUIRED, hash_token, new_token, require_user
from server.db import db_session
from server.docs import document_errors
from server.errors import fail
from server.models import User
from server.parsing import Blueprint
from server.users.schemas import (
    NewUserSchema,
    PreferencesSchema,
    TokenSchema,
    UserCreateSchema,
    UserSchema,
)

blp = Blueprint("users", __name__, description="Accounts and API tokens")


def user_json(user: User) -> dict:
    return {"id": user.id, "name": user.name, "email": user.email,
            "preferences": {"email": user.email_preference,
                            "removals": "choose" if user.choose_removals else "automatic"}}


@blp.route("")
class Users(MethodView):
    @blp.arguments(UserCreateSchema())
    @blp.response(201, NewUserSchema)
    @document_errors(400, 409, 413, 422, 429)
    def post(self, data: dict):
        """Register: returns your API token (once)."""
        session = db_session()
        if session.exec(select(User).where(User.email == data["email"])).first() is not None:
            fail(409, f"the email {data['email']} is already registered")
        token = new_token()
        user = User(name=data["name"], email=data["email"], token_hash=hash_token(token))
        session.add(user)
        try:
            session.commit()
        except IntegrityError:
            session.rollback()
            fail(409, f"the email {data['email']} is already registered")
        return {"id": user.id, "name": user.name, "email": user.email, "token": token}


@blp.route("/me")
class Me(MethodView):
    @blp.response(200, UserSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 429)
    def get(self):
        """Your account."""
        return user_json(require_user())


@blp.route("/me/token")
class Token(MethodView):
    @blp.response(201, TokenSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(401, 429)
    def post(self):
        """Rotate your API token: the new one is returned once, the old one stops working."""
        user = require_user()
        token = new_token()
        user.token_hash = hash_token(token)
        session = db_session()
        session.add(user)
        session.commit()
        return {"token": token}


@blp.route("/me/preferences")
class Preferences(MethodView):
    @blp.arguments(PreferencesSchema())
    @blp.response(200, UserSchema)
    @blp.doc(security=SECURITY_REQUIRED)
    @document_errors(400, 401, 413, 422, 429)
    def patch(self, data: dict):
        """Set your preferences: notifications, and whether you choose your own removal turns."""
        user = require_user()
        if "email" in data:
            user.email_preference = data["email"]
        if "removals" in data:
            user.choose_removals = data["removals"] == "choose"
        session = db_session()
        session.add(user)
        session.commit()
        return user_json(user)
