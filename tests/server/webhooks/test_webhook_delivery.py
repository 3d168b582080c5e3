"""Webhook deliveries end to end: a game's turn changes and its end reach a real HTTP receiver
on loopback, signed; a failing receiver is retried with backoff, then parked like mail."""

import json
import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

import engine
from engine.bots.policies import greedy_policy
from server import create_app
from server.delivery.backoff import MAX_ATTEMPTS
from server.games.service import SERVER_ACTOR, apply_command, load_state
from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import Game, WebhookDelivery
from server.webhooks import signing
from tests.accounts import sign_up
from tests.server.scheduler.helpers import Clock, Player
from tests.server.spec_validation import assert_valid, spec
from tests.webhook_sink import serve


@pytest.fixture
def app(db_url, tmp_path):
    return create_app({"DATABASE_URL": db_url, "OUTBOX_DIR": str(tmp_path / "outbox"),
                       "BASE_URL": "https://iridescia.test", "TESTING": True,
                       "WEBHOOK_ALLOW_PRIVATE": 1})


@pytest.fixture
def sink():
    sink, server = serve()
    yield sink
    server.shutdown()
    server.server_close()


@pytest.fixture
def clock():
    """An hour ahead of the real time at which the API queues the deliveries: they are due."""
    return Clock(datetime.now(UTC) + timedelta(hours=1))


@pytest.fixture
def ticker(app, clock):
    return Ticker(app, clock, rng=random.Random(7))


def _hook(table, game_id, player, url, **extra):
    response = table.client.put(f"/api/v1/games/{game_id}/webhook", json={"url": url, **extra},
                                headers={"Authorization": f"Bearer {player.token}"})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def _as_the_spec_says(received, component="WebhookDelivery"):
    """The delivery is what the spec's ``webhooks`` say: its body the component, every header
    the operation lists present and fitting its schema (issue 32)."""
    from openapi_schema_validator import OAS31Validator

    event = received.headers["X-Iridescia-Event"]
    operation = spec()["webhooks"][event]["post"]
    for parameter in operation["parameters"]:
        value = received.headers.get(parameter["name"])
        assert value is not None, parameter["name"]
        OAS31Validator(parameter["schema"]).validate(value)
    assert_valid(json.loads(received.body), component)


def _verified(received, secret, now, component="WebhookDelivery"):
    headers = received.headers
    _as_the_spec_says(received, component)
    assert headers["Content-Type"] == "application/json"
    assert signing.verify(secret, headers["X-Iridescia-Timestamp"],
                          headers["X-Iridescia-Signature"], received.body, now.timestamp())
    return json.loads(received.body)


def _pass_turn(table, ticker, game_id):
    """The turn passes on: the human to act plays it, else the scheduler plays the Rhom's."""
    if table.play_one(game_id):
        table.play_turn(game_id)
    else:
        assert ticker.due_work().automatic


def _finish(app, game_id, now):
    """Both seats play greedily (removal turns too) through the server's command path."""
    rng = random.Random(1)
    for _ in range(5000):
        with session_scope(app_engine(app)) as session:
            game = session.get(Game, game_id)
            state = load_state(session, game)
            if engine.is_terminal(state):
                return
            seat = engine.current_player(state)
            actor = SERVER_ACTOR if engine.pending_kind(state) == "removal" else f"seat{seat}"
            apply_command(session, game, greedy_policy(state, seat, rng), actor, now)
    raise AssertionError("the game did not end")


def test_a_turn_change_and_the_end_reach_the_receiver_signed(app, table, ticker, clock, sink):
    ada, bob = table.register("Ada"), table.register("Bob")
    created = table._call("post", "/games", ada, seats=2,
                          webhook={"url": sink.url("/ada?token=t")})
    secret = created["webhook"]["secret"]
    assert len(secret) == 64 and created["webhook"]["url"] == sink.url("/ada?token=t")
    table._call("post", "/games/join", bob, code=created["join_code"])
    game_id = created["id"]
    table._call("post", f"/games/{game_id}/start", ada)
    report = ticker.deliver_webhooks()
    assert report.sent, report
    [first] = sink.received
    assert first.path == "/ada?token=t" and first.headers["X-Iridescia-Event"] == "turn"
    started = _verified(first, secret, clock())
    seat = started["turn"]["seat"]
    assert started["game"] == {"id": game_id, "url": f"https://iridescia.test/games/{game_id}",
                               "version": table.game(game_id).version, "status": "active"}
    assert started["turn"]["player"] == table.player_at(game_id, seat).name
    assert started["turn"]["your_turn"] == (table.player_at(game_id, seat) == ada)
    assert started["scores"] is None

    table.play_turn(game_id)
    ticker.deliver_webhooks()
    [_, second] = sink.received
    passed = _verified(second, secret, clock())
    assert passed["turn"]["seat"] != seat and passed["turn"]["number"] > started["turn"]["number"]
    # What the turn just ended did, as a spectator is told it.
    assert passed["happened"][0].startswith(f"Turn {started['turn']['number']}")
    assert len(passed["happened"]) > 1

    _finish(app, game_id, clock())
    report = ticker.deliver_webhooks()
    assert report.parked == [] and report.retrying == []
    ended = _verified(sink.received[-1], secret, clock())
    assert sink.received[-1].headers["X-Iridescia-Event"] == "game_over"
    assert ended["event"] == "game_over" and ended["turn"] is None
    state = table.state(game_id)
    totals = {s["seat"]: s["total"] for s in engine.outcome(state).to_dict()["seats"]}
    assert {s["seat"]: s["total"] for s in ended["scores"]} == totals
    assert [s["rank"] for s in ended["scores"]] == sorted(s["rank"] for s in ended["scores"])
    # Every turn change was told once, in order of the game.
    versions = [json.loads(r.body)["game"]["version"] for r in sink.received]
    assert versions == sorted(set(versions))
    assert ticker.deliver_webhooks().sent == []
    refused = table.client.put(f"/api/v1/games/{game_id}/webhook", json={"url": sink.url()},
                               headers={"Authorization": f"Bearer {bob.token}"})
    assert refused.status_code == 409 and "tells no more turns" in refused.get_json()["message"]


def test_a_tampered_or_replayed_delivery_fails_verification(app, table, ticker, clock, sink):
    ada = table.register("Ada")
    game_id = table.new_game(ada)
    secret = _hook(table, game_id, ada, sink.url())["secret"]
    _pass_turn(table, ticker, game_id)
    ticker.deliver_webhooks()
    got = sink.received[-1]
    stamp, signed = got.headers["X-Iridescia-Timestamp"], got.headers["X-Iridescia-Signature"]
    assert signed.startswith("sha256=")
    assert signing.verify(secret, stamp, signed, got.body, clock().timestamp())
    assert not signing.verify(secret, stamp, signed, got.body + b" ", clock().timestamp())
    assert not signing.verify("0" * 64, stamp, signed, got.body, clock().timestamp())
    later = (clock() + timedelta(minutes=10)).timestamp()
    assert not signing.verify(secret, stamp, signed, got.body, later)


def test_a_500_is_retried_with_backoff_then_delivered(app, table, ticker, clock, sink):
    ada = table.register("Ada")
    game_id = table.new_game(ada)
    _hook(table, game_id, ada, sink.url())
    _pass_turn(table, ticker, game_id)
    sink.answers = [500, 503]
    first = ticker.deliver_webhooks()
    assert first.retrying and not first.sent
    assert ticker.deliver_webhooks().sent == []  # not yet due: the backoff holds it
    with session_scope(app_engine(app)) as session:
        row = session.get(WebhookDelivery, first.retrying[0])
        assert row.status == "pending" and row.attempts == 1 and "answered 500" in row.last_error
        assert row.next_attempt_at > clock()
    clock.advance(hours=1)
    assert ticker.deliver_webhooks().retrying == first.retrying
    clock.advance(hours=1)
    assert ticker.deliver_webhooks().sent == first.retrying
    bodies = {r.body for r in sink.received if json.loads(r.body)["delivery_id"] == first.retrying[0]}
    assert len(bodies) == 1  # every attempt sent the same bytes
    assert len(sink.received) == 3


def test_a_receiver_failing_too_long_is_parked_and_shown_to_the_operator(
        app, table, ticker, clock, sink, monkeypatch):
    from click.testing import CliRunner

    from server.cli import main

    ada = table.register("Ada")
    game_id = table.new_game(ada)
    _hook(table, game_id, ada, sink.url())
    _pass_turn(table, ticker, game_id)
    sink.answers = [500] * MAX_ATTEMPTS
    for _ in range(MAX_ATTEMPTS - 1):
        assert ticker.deliver_webhooks().retrying
        clock.advance(hours=2)
    parked = ticker.deliver_webhooks().parked
    assert parked and len(sink.received) == MAX_ATTEMPTS
    clock.advance(days=3)
    assert ticker.deliver_webhooks().sent == []  # parked stays parked

    monkeypatch.setenv("IRIDESCIA_DATABASE_URL", app.config["DATABASE_URL"])
    listed = CliRunner().invoke(main, ["outbox"])
    assert listed.exit_code == 0, listed.output
    assert f"webhook {parked[0]}\tparked\t{MAX_ATTEMPTS} attempt(s)" in listed.output
    assert "127.0.0.1" in listed.output and "answered 500" in listed.output
    again = CliRunner().invoke(main, ["outbox", "--retry-webhook", str(parked[0])])
    assert again.exit_code == 0 and f"queued again: {parked[0]} webhook turn" in again.output
    assert ticker.deliver_webhooks().sent == parked


def test_an_answer_that_will_not_change_is_parked_at_once(app, table, ticker, clock, sink):
    ada = table.register("Ada")
    game_id = table.new_game(ada)
    _hook(table, game_id, ada, sink.url())
    _pass_turn(table, ticker, game_id)
    sink.answers = [302]  # a redirect is not followed
    report = ticker.deliver_webhooks()
    assert report.parked and len(sink.received) == 1
    with session_scope(app_engine(app)) as session:
        row = session.get(WebhookDelivery, report.parked[0])
    assert "answered 302" in row.last_error and "redirects are not followed" in row.last_error


@pytest.mark.parametrize("format", ["discord", "slack"])
def test_discord_and_slack_get_their_incoming_webhook_bodies(app, table, ticker, clock, sink,
                                                             format):
    data = sign_up(table.client, "Ada <!channel> @everyone [win](https://evil.example)",
                   "ada@example.org")
    ada = table.players[data["id"]] = Player(data["name"], data["email"], data["id"], data["token"])
    game_id = table.new_game(ada)
    hook = _hook(table, game_id, ada, sink.url(f"/chat?format={format}"))
    assert hook["format"] == format and hook["url"] == sink.url("/chat")
    _pass_turn(table, ticker, game_id)
    ticker.deliver_webhooks()
    got = sink.received[-1]
    assert got.path == "/chat"
    body = json.loads(got.body)
    component = "WebhookDiscordBody" if format == "discord" else "WebhookSlackBody"
    words = body["content"] if format == "discord" else body["text"]
    assert set(body) == ({"content", "allowed_mentions"} if format == "discord" else {"text"})
    assert f"game {game_id}" in words and f"https://iridescia.test/games/{game_id}" in words
    if format == "discord":
        # The name is shown as typed, never read as markdown: no disguised link (issue 32, L8)
        assert r"Ada \<!channel\> @everyone \[win\]\(https\://evil.example\)" in words
        assert "[win](" not in words
        assert body["allowed_mentions"] == {"parse": []}  # a name cannot ping the channel
    else:
        assert "Ada &lt;!channel&gt; @everyone" in words  # nor make Slack mention everyone
        assert "<!channel>" not in words
    _verified(got, hook["secret"], clock(), component)


def test_a_delivery_to_a_host_now_private_is_refused_at_delivery(app, table, ticker, clock, sink):
    """DNS rebinding: the URL passed when it was set; at delivery its host resolves to
    loopback, and with the switch off nothing is sent."""
    ada = table.register("Ada")
    game_id = table.new_game(ada)
    _hook(table, game_id, ada, sink.url(host="localhost"))
    _pass_turn(table, ticker, game_id)
    app.config["WEBHOOK_ALLOW_PRIVATE"] = 0
    report = ticker.deliver_webhooks()
    assert report.parked and sink.received == []
    with session_scope(app_engine(app)) as session:
        row = session.get(WebhookDelivery, report.parked[0])
    assert "a loopback address" in row.last_error


def test_a_host_in_fullwidth_digits_is_delivered_to_as_its_ascii_form(app, table, ticker, clock,
                                                                     sink):
    """Issue 32, L6: ``http://１２７.０.０.１:port/`` passed the guard, then every delivery
    crashed on its Host header and was never parked; it is now sent to 127.0.0.1."""
    ada = table.register("Ada")
    game_id = table.new_game(ada)
    _hook(table, game_id, ada, sink.url(host="\uff11\uff12\uff17\uff0e\uff10\uff0e\uff10\uff0e\uff11"))
    _pass_turn(table, ticker, game_id)
    report = ticker.deliver_webhooks()
    assert report.sent and not report.parked and not report.retrying, report
    assert sink.received[-1].headers["Host"] == f"127.0.0.1:{sink.port}"


def test_removing_a_webhook_stops_its_deliveries(app, table, ticker, clock, sink):
    ada = table.register("Ada")
    game_id = table.new_game(ada)
    _hook(table, game_id, ada, sink.url())
    _pass_turn(table, ticker, game_id)
    response = table.client.delete(f"/api/v1/games/{game_id}/webhook",
                                   headers={"Authorization": f"Bearer {ada.token}"})
    assert response.status_code == 204
    assert ticker.deliver_webhooks().sent == [] and sink.received == []
    with session_scope(app_engine(app)) as session:
        assert session.exec(select(WebhookDelivery)).all() == []


def test_a_players_own_webhook_tells_only_what_anyone_may_know(app, table, ticker, clock, sink):
    """Each player's webhook says whose turn it is and what happened as a spectator is told
    it: no objective (not even the owner's own), no seed, no sign-in link, before or after the
    end; the only address in it is the game page's."""
    from engine.text.wording import component_name
    from tests.server.play import secrets_hidden_from

    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob], seed="webhook-secrets")
    secrets = {player.name: _hook(table, game_id, player, sink.url(f"/{player.name}"))["secret"]
               for player in (ada, bob)}
    state = table.state(game_id)
    hidden = secrets_hidden_from(state, None, "webhook-secrets")
    hidden |= {component_name(card) for card in hidden if card != "webhook-secrets"}
    assert len(hidden) >= 1 + 2 * 2  # the seed, and each seat's objectives by id and by name
    for _ in range(6):
        table.play_turn(game_id)
    _finish(app, game_id, clock())
    assert not ticker.deliver_webhooks().parked
    by_owner = {"Ada": [], "Bob": []}
    for got in sink.received:
        by_owner[got.path.strip("/")].append(_verified(got, secrets[got.path.strip("/")], clock()))
    assert len(by_owner["Ada"]) == len(by_owner["Bob"]) > 6
    for owner, payloads in by_owner.items():
        for payload in payloads:
            words = json.dumps(payload)
            assert not [secret for secret in hidden if secret in words], (owner, payload)
            assert re.findall(r"https?://[^\s\"]+", words) == [
                f"https://iridescia.test/games/{game_id}"]
            if payload["turn"] is not None:
                assert payload["turn"]["your_turn"] == (payload["turn"]["player"] == owner)
    # The two players' payloads differ only in whose turn is "yours".
    for mine, theirs in zip(by_owner["Ada"], by_owner["Bob"], strict=True):
        for payload in (mine, theirs):
            payload.pop("delivery_id")
            if payload["turn"]:
                payload["turn"].pop("your_turn")
        assert mine == theirs


def test_a_disabled_account_is_told_nothing(app, table, ticker, clock, sink):
    from server.storage.models import User, utcnow

    ada = table.register("Ada")
    game_id = table.new_game(ada)
    _hook(table, game_id, ada, sink.url())
    with session_scope(app_engine(app)) as session:
        user = session.get(User, ada.id)
        user.disabled_at = utcnow()  # as `iridescia-server users disable` does
        session.add(user)
    first = engine.current_player(table.state(game_id))
    while engine.current_player(table.state(game_id)) == first:  # the turn passes on
        with session_scope(app_engine(app)) as session:
            game = session.get(Game, game_id)
            state = load_state(session, game)
            apply_command(session, game, greedy_policy(state, first, random.Random(1)),
                          SERVER_ACTOR, clock())
    with session_scope(app_engine(app)) as session:
        assert session.exec(select(WebhookDelivery)).all() == []
    assert ticker.deliver_webhooks().sent == [] and sink.received == []


def test_the_embedded_scheduler_delivers_at_once_when_the_turn_changes(app, table, clock, sink):
    """The `webhooks` job is woken by the commit that queued the delivery, not by its interval."""
    import time

    from server.scheduler import start_embedded

    ada = table.register("Ada")
    game_id = table.new_game(ada)
    _hook(table, game_id, ada, sink.url())
    app.config["SCHEDULER_INTERVAL_SECONDS"] = 60  # longer than the test waits
    scheduler = start_embedded(app, clock)
    try:
        give_up = time.monotonic() + 10
        while not table.play_one(game_id):  # the Rhom may go first: the tick job plays it
            assert time.monotonic() < give_up, "the Rhom's turn was not played"
            time.sleep(0.05)
        time.sleep(0.5)  # what the Rhom's turn queued is delivered by now
        told = len(sink.received)
        table.play_turn(game_id)  # to the end of the human's turn: the turn changes
        give_up = time.monotonic() + 10
        while len(sink.received) == told and time.monotonic() < give_up:
            time.sleep(0.05)
        assert len(sink.received) > told, "the delivery waited for the interval"
    finally:
        scheduler.shutdown(wait=True)
