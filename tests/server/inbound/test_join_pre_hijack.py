"""Issue 32, H3: after an invitation was mailed, anyone could register the invitee's address
through the API and keep the token; the invitee's `join` reply then confirmed that account and
seated it, and the registrant's token read the invitee's objectives and played for them. A
`join` by mail now rotates the token of an unconfirmed account before confirming it: the
registrant's token, page sessions and links end; the invitee plays by mail as before."""

from sqlmodel import select

from server.http.auth import hash_token
from server.storage.db import app_engine, session_scope
from server.storage.models import User
from tests.server.inbound.conftest import flat
from tests.server.inbound.post import reply, text_of

INVITEE = "friend@example.org"
OLD_TOKEN = "registered-before-tokens-went-by-mail-0123456789"


def test_a_join_by_mail_takes_the_account_away_from_whoever_registered_the_address(
        app, post, table):
    ada = table.register("Ada")
    game = table._call("post", "/games", ada, seats=2)
    table._call("post", f"/games/{game['id']}/invitations", ada, email=INVITEE)
    post.deliver()
    invitation = post.latest(INVITEE, "invites you")

    squatter = table.client.post("/api/v1/users", json={"name": "Friend", "email": INVITEE})
    assert squatter.status_code == 202 and "token" not in squatter.json  # it goes by mail only
    # A registrant from before tokens travelled by mail was answered one: it must end too.
    with session_scope(app_engine(app)) as session:
        account = session.exec(select(User).where(User.email == INVITEE)).one()
        account.token_hash = hash_token(OLD_TOKEN)
        squatter_id = account.id
    stolen = {"Authorization": f"Bearer {OLD_TOKEN}"}
    assert table.client.get("/api/v1/users/me", headers=stolen).status_code == 200

    outcome = post.ingest(reply(invitation, "join"))
    post.deliver()
    assert outcome.status == "joined"
    assert f"You have a seat in game {game['id']}" in flat(text_of(post.answer(INVITEE)))
    # The registrant's token no longer reads anything, the invitee's seat least of all.
    assert table.client.get("/api/v1/users/me", headers=stolen).status_code == 401
    assert table.client.get(f"/api/v1/games/{game['id']}/view",
                            headers=stolen).status_code == 401
    with session_scope(app_engine(app)) as session:
        user = session.get(User, squatter_id)
        assert user.verified_at is not None
        assert user.token_hash != hash_token(OLD_TOKEN)
    players = table._call("get", f"/games/{game['id']}", ada)["players"]
    assert squatter_id in [p["user_id"] for p in players]


def test_a_confirmed_account_keeps_its_token_when_it_joins_by_mail(app, post, table):
    ada, bo = table.register("Ada"), table.register("Bo")  # Bo confirmed his address
    game = table._call("post", "/games", ada, seats=2)
    table._call("post", f"/games/{game['id']}/invitations", ada, email=bo.email)
    post.deliver()
    assert post.ingest(reply(post.latest(bo.email, "invites you"), "join")).status == "joined"
    assert table.client.get("/api/v1/users/me", headers={
        "Authorization": f"Bearer {bo.token}"}).status_code == 200
