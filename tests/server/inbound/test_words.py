"""The mail words beyond game commands, the bare address, unsubscribing (by mail and by the
one-click link), who may act (authentication, rate limit), and what answers keep hidden."""

import re
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

import engine
from engine.data import display_name
from tests.server.inbound.conftest import answer_to, flat
from tests.server.inbound.post import reply, text_of


def to_bare(sender: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"] = sender, "play@iridescia.test"
    message["Subject"], message["Message-ID"] = "hello", make_msgid(domain="example.org")
    message.set_content(body)
    return bytes(message)


def test_the_bare_address_lists_a_players_games_with_their_reply_addresses(post, table, duel):
    outcome = post.ingest(to_bare(duel.player.email, "what are my games?"))
    post.deliver()
    answer = answer_to(post, duel.player.email)
    assert outcome.status == "answered"
    address = re.search(rf"{duel.game_id} \(your turn\): write to (\S+)", answer).group(1)
    assert address.startswith("play+play-")
    assert re.search(r"send `new solo \w{8}` to play@iridescia.test", flat(answer))
    # The listed address plays the game.
    assert post.ingest(reply(duel.mail, duel.first, to=address)).status == "applied"


def test_a_new_solo_without_the_players_code_starts_nothing_and_tells_them_the_code(
        post, table, duel):
    """Issue 32, M3: with IRIDESCIA_INBOUND_REQUIRE_AUTH=none, mail forged From a player to the
    bare address made games in their name. The code goes only to the player's own address."""
    games = len(table_games(post.app))
    forged = post.ingest(to_bare(duel.player.email, "new solo"))
    post.deliver()
    told = flat(answer_to(post, duel.player.email))
    assert forged.status == "answered" and len(table_games(post.app)) == games
    assert "No game was started: `new solo` needs your code" in told
    code = re.search(r"send `new solo (\w{8})`", told).group(1)
    guessed = post.ingest(to_bare(duel.player.email, "new solo abcdefgh"))
    assert guessed.status == "answered" and len(table_games(post.app)) == games
    started = post.ingest(to_bare(duel.player.email, f"new solo {code}"))
    assert started.status == "created" and len(table_games(post.app)) == games + 1


def table_games(app):
    from sqlmodel import select

    from server.storage.db import app_engine, session_scope
    from server.storage.models import Game

    with session_scope(app_engine(app)) as session:
        return session.exec(select(Game.id)).all()


def test_an_unknown_sender_to_the_bare_address_is_dropped_without_an_answer(post, table):
    sent = post.count()
    assert post.ingest(to_bare("nobody@example.net", "new solo")).status == "dropped"
    post.deliver()
    assert post.count() == sent


def test_help_show_and_legal_answer_without_playing(post, table, duel):
    before = table.game(duel.game_id).version
    outcome = post.ingest(reply(duel.mail, "help\nshow\nlegal"))
    post.deliver()
    answer = answer_to(post, duel.player.email)
    assert outcome.status == "answered"
    assert "unsubscribe   no more email at all" in answer
    assert "The board:" in answer and f"    {duel.first}\n" in answer
    assert table.game(duel.game_id).version == before


def test_stop_ends_the_mail_of_one_game(post, table, duel):
    post.ingest(reply(duel.mail, "stop"))
    post.deliver()
    assert "no more email about this game" in flat(answer_to(post, duel.player.email))
    other_seat = 1 - duel.seat
    count = len(post.mail_to(duel.player.email))
    while engine.current_player(table.state(duel.game_id)) == duel.seat:
        table.play_one(duel.game_id)
    while engine.current_player(table.state(duel.game_id)) == other_seat:
        table.play_one(duel.game_id)
    post.deliver()  # the turn is back with the player who said stop: no your-turn mail
    assert engine.current_player(table.state(duel.game_id)) == duel.seat
    assert len(post.mail_to(duel.player.email)) == count
    assert post.mail_to(duel.other.email)  # the other player still gets theirs


def test_unsubscribe_by_the_list_unsubscribe_mailto(post, table, duel):
    header = str(duel.mail["List-Unsubscribe"])
    mailto = re.search(r"<mailto:([^?>]+)\?subject=unsubscribe>", header).group(1)
    outcome = post.ingest(reply(duel.mail, "", to=mailto))
    assert outcome.status == "answered"
    assert table._call("get", "/users/me", duel.player)["preferences"]["email"] == "none"


def test_unsubscribe_by_the_one_click_link(post, table, duel):
    header = str(duel.mail["List-Unsubscribe"])
    assert str(duel.mail["List-Unsubscribe-Post"]) == "List-Unsubscribe=One-Click"
    link = re.search(r"<https://iridescia\.test(/api/v1/mail/unsubscribe/[^>]+)>", header).group(1)
    assert table.client.get(link).get_json()["email"] == "every_turn"  # a GET changes nothing
    answered = table.client.post(link, data="List-Unsubscribe=One-Click",
                                 content_type="application/x-www-form-urlencoded")
    assert answered.status_code == 200, answered.get_json()
    assert table._call("get", "/users/me", duel.player)["preferences"]["email"] == "none"
    table._call("post", "/users/me/token", duel.player)  # rotating the token voids the link
    gone = table.client.post(link, data="List-Unsubscribe=One-Click")
    assert gone.status_code == 404
    assert "not valid" in gone.get_json()["message"]


@pytest.fixture
def strict_app(settings):
    from server import create_app

    return create_app(dict(settings, INBOUND_AUTHSERV_ID="mx.iridescia.test"))


@pytest.fixture
def limited_app(settings):
    from server import create_app

    return create_app(dict(settings, INBOUND_RATE_LIMIT=3))


def test_dkim_is_read_only_from_the_operators_authserv_id(post, table, duel, strict_app):
    """Setting IRIDESCIA_INBOUND_AUTHSERV_ID makes dkim the default, and only that id's header
    counts (issue 32, M8: a topmost header the sender wrote was trusted)."""
    from server.inbound.ingest import ingest

    domain = duel.player.email.partition("@")[2]
    missing = ingest(reply(duel.mail, duel.first), app=strict_app)
    forged_below = ingest(reply(duel.mail, duel.first, headers={
        "Authentication-Results": f"mx.iridescia.test; dkim=fail header.d={domain}",
        "X-Filler": "x"}) .replace(b"X-Filler: x\n", f"Authentication-Results: evil; dkim=pass "
                                   f"header.d={domain}\n".encode()), app=strict_app)
    forged_on_top = ingest(reply(duel.mail, duel.first, headers={
        "Authentication-Results": f"evil.example; dkim=pass header.d={domain}"}), app=strict_app)
    other_domain = ingest(reply(duel.mail, duel.first, headers={
        "Authentication-Results": "mx.iridescia.test; dkim=pass header.d=evil.example"}),
        app=strict_app)
    assert [o.status for o in (missing, forged_below, forged_on_top, other_domain)] == [
        "unauthenticated"] * 4
    passed = ingest(reply(duel.mail, duel.first, headers={
        "Authentication-Results": f"mx.iridescia.test; dkim=pass header.d={domain}"}),
        app=strict_app)
    assert passed.status == "applied", passed


def test_dkim_without_an_authserv_id_is_a_setting_error_that_says_what_to_set(settings):
    from server import create_app

    with pytest.raises(ValueError, match="needs IRIDESCIA_INBOUND_AUTHSERV_ID"):
        create_app(dict(settings, INBOUND_REQUIRE_AUTH="dkim"))


def test_forged_mail_neither_uses_up_the_players_limit_nor_mails_them_each_time(
        post, table, duel, settings):
    """Issue 32, M4: 61 forgeries locked the player out for an hour, each one answered."""
    from server import create_app
    from server.inbound.ingest import ingest

    app = create_app(dict(settings, INBOUND_AUTHSERV_ID="mx.iridescia.test",
                          INBOUND_RATE_LIMIT=3))
    domain = duel.player.email.partition("@")[2]
    sent = post.count()
    forged = [ingest(to_bare(duel.player.email, "list"), app=app).status for _ in range(6)]
    post.deliver()
    assert forged == ["unauthenticated"] * 6
    assert post.count() == sent + 1  # one answer says why, not six
    genuine = ingest(reply(duel.mail, duel.first, headers={
        "Authentication-Results": f"mx.iridescia.test; dkim=pass header.d={domain}"}), app=app)
    assert genuine.status == "applied", genuine


def test_a_sender_over_the_rate_limit_is_recorded_and_ignored(post, table, duel, limited_app):
    from server.inbound.ingest import ingest

    statuses = [ingest(to_bare(duel.player.email, "list"), app=limited_app).status
                for _ in range(4)]
    assert statuses == ["answered", "answered", "answered", "rate_limited"]


def test_answers_show_no_other_seats_secrets(post, table, duel):
    """Objectives of the other seat, the seed and face-down tiles never reach an answer."""
    state = table.state(duel.game_id)
    theirs = engine.view(state, 1 - duel.seat)["players"][1 - duel.seat]["objectives"]
    mine = engine.view(state, duel.seat)["players"][duel.seat]["objectives"]
    secret = {text for o in theirs if o not in mine for text in (o, display_name(o))}
    seed = table.game(duel.game_id).seed
    post.ingest(reply(duel.mail, f"{duel.first}\nshow\nlegal\nhelp"))
    post.ingest(to_bare(duel.player.email, "games"))
    post.deliver()
    answers = [text_of(m) for m in post.mail_to(duel.player.email)
               if m["In-Reply-To"]]
    assert len(answers) == 2
    for text in answers:
        assert [s for s in secret if s in text] == []
        assert seed not in text
    face_down = [h for row in engine.view(state, duel.seat)["board"] for h in row["hexes"]
                 if h["state"] == "face_down"]
    assert face_down and all("tile" not in h or h["tile"] is None for h in face_down)
