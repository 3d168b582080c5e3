"""Hidden information and access, for every endpoint and every email.

A game is played for a while; then everything each player and an anonymous spectator can fetch
(the game, its view at every version, the feed, the legal commands, the export, the game list,
the answers to their own commands) and every email queued for them is searched for what they may
not know: other seats' objectives (held or discarded), the order of the item, relic and Rhom
decks, the identities of face-down and set-aside tiles, and the seed. Tokens are stored hashed:
a dump of every table holds none. A token cannot act for another seat."""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from sqlmodel import select

import engine
from engine.data import OBJECTIVES, TILES, display_name
from server.mail.outbox import render_pending
from server.scheduler.tick import Ticker
from server.storage.db import session_scope
from server.storage.models import Event, Outbox, utcnow
from tests.reliability.helpers import dump_database, event_log, verify_log

COMMANDS = 30
# This many deck cards in deck order, anywhere in one list, reveal the order. Items come in three
# copies of twelve, so a market seen earlier can match four cards of a reshuffled deck by chance:
# the item deck needs a longer run before a match means a leak.
DECK_RUN = {"item deck": 6, "relic deck": 4, "rhom deck": 4}


def _secrets(db, game_id: str, state, viewer: int | None, seed: str) -> dict[str, set[str]]:
    """The strings ``viewer`` must not see, by what they are."""
    with session_scope(db) as session:
        started = session.exec(select(Event).where(Event.game_id == game_id,
                                                   Event.type == "game_started")).one().payload
    others = [p for p in state.players if p.seat != viewer]
    own = set() if viewer is None else set(state.players[viewer].objectives) | {
        state.players[viewer].discarded_objective}
    objectives = {o for p in others for o in (*p.objectives, p.discarded_objective) if o} - own
    face_down = {tile for hex_name, tile in state.board.items() if hex_name not in state.revealed}
    hidden_tiles = face_down | set(started["removed_tiles"])
    # The emails and narration name tiles by their printed name: one that only a hidden tile
    # bears (the Desert's plain tiles come in threes) must not appear either.
    printed = Counter(display_name(t) for t in TILES)
    return {
        "objective": objectives | {OBJECTIVES[o].name for o in objectives},
        "face-down tile": hidden_tiles | {display_name(t) for t in hidden_tiles
                                          if printed[display_name(t)] == 1},
        "seed": {seed},
    }


def _decks(state) -> dict[str, tuple]:
    return {"item deck": state.item_deck, "relic deck": state.relic_deck,
            "rhom deck": state.rhom_deck}


def _lists(value: Any):
    if isinstance(value, list):
        yield value
        for item in value:
            yield from _lists(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _lists(item)


def _leaks(what: str, body: Any, secrets: dict[str, set[str]], decks: dict[str, tuple]) -> list:
    text = body if isinstance(body, str) else json.dumps(body)
    found = [f"{what}: {kind} {secret!r}" for kind, values in secrets.items()
             for secret in values if secret and secret in text]
    if not isinstance(body, str):
        for name, deck in decks.items():
            run = DECK_RUN[name]
            runs = {tuple(deck[i:i + run]) for i in range(len(deck) - run + 1)}
            for shown in _lists(body):
                windows = {tuple(shown[i:i + run]) for i in range(len(shown) - run + 1)
                           if all(isinstance(x, (str, int)) for x in shown[i:i + run])}
                if runs & windows:
                    found.append(f"{what}: the {name} order {shown!r}")
    return found


@pytest.mark.parametrize("table", ["two players", "solo against the Rhom"])
def test_nobody_sees_what_they_may_not(app, api, db, ada, bob, eve, table):
    others = [bob] if table == "two players" else []
    game_id = api.new_game(ada, others, public=True, rhom_delay_seconds=0)
    seats = api.seats(game_id, ada, [ada, *others])
    # The scheduler plays the Rhom's turns (its clock an hour ahead: no delay to wait out).
    ticker = Ticker(app, lambda: utcnow() + timedelta(hours=1))
    rng = random.Random(11)
    answers: dict[int, list] = {seat: [] for seat in seats}
    for _ in range(COMMANDS):  # play, keeping every answer each player was sent
        info = api.ok("GET", f"/games/{game_id}", ada)
        if info["status"] != "active":
            break
        seat = info["current_seat"]
        if seat not in seats:
            assert ticker.tick().automatic, f"the Rhom did not play in {game_id}"
            continue
        legal = api.ok("GET", f"/games/{game_id}/legal", seats[seat])
        answers[seat].append(legal)
        answers[seat].append(api.ok("POST", f"/games/{game_id}/commands", seats[seat], {
            "command": rng.choice(legal["commands"]), "expected_version": legal["version"]}))
    state = verify_log(db, game_id)
    assert not engine.is_terminal(state), "the game ended: nothing is hidden any more"
    info = api.ok("GET", f"/games/{game_id}", ada)
    version, seed = info["version"], _seed(db, game_id)
    viewers = [(seat, player) for seat, player in seats.items()] + [(None, None), (None, eve)]

    leaks, fetched = [], 0
    for seat, player in viewers:
        secrets, decks = _secrets(db, game_id, state, seat, seed), _decks(state)
        who = player.name if player else "anonymous"
        bodies = [("game", api.ok("GET", f"/games/{game_id}", player)),
                  ("feed", api.ok("GET", f"/games/{game_id}/events?after=0", player))]
        if seat is None:  # a spectator of a public game cannot take a seat with its code
            assert bodies[0][1]["join_code"] is None, (who, bodies[0][1])
        bodies += [(f"view v{v}", api.ok("GET", f"/games/{game_id}/view?version={v}", player))
                   for v in range(1, version + 1)]
        status, export, _ = api.call("GET", f"/games/{game_id}/export", player)
        assert status == 409, (who, status)
        bodies.append(("export refusal", export))
        if player is not None:
            bodies.append(("game list", api.ok("GET", "/games", player)))
            status, legal, _ = api.call("GET", f"/games/{game_id}/legal", player)
            bodies.append(("legal", legal))
            if seat is None:
                assert status == 200 and legal["commands"] == [] and legal["seat"] is None
        bodies += [("command answer", answer) for answer in answers.get(seat, [])]
        for what, body in bodies:
            leaks += _leaks(f"{who} {what}", body, secrets, decks)
        fetched += len(bodies)
        if player is not None:
            mails = _mails(db, player.email)
            assert mails or seat is None, f"no email was queued for {who}"
            for subject, text, html in mails:
                leaks += _leaks(f"{who} email {subject!r}", text + (html or ""), secrets, decks)
    assert not leaks, "\n".join(leaks[:20])
    # The search finds each kind of secret where it is: in the whole state.
    raw = _leaks("state", engine.state_to_dict(state), _secrets(db, game_id, state, 0, seed),
                 _decks(state)) + _leaks("seed", {"seed": seed}, {"seed": {seed}}, {})
    kinds = ["face-down tile", "item deck", "relic deck", "seed"]
    kinds += ["objective"] if others else ["rhom deck"]
    for kind in kinds:
        assert any(kind in leak for leak in raw), (kind, raw)

    # The searches can find what they look for: each player's own objectives are in their view.
    for seat, player in seats.items():
        mine = api.ok("GET", f"/games/{game_id}/view", player)["players"][seat]["objectives"]
        assert mine == list(state.players[seat].objectives)
    print(f"hidden information ({table}): {fetched} responses and the emails of {len(seats)} players "
          f"searched at version {version}; no objective, deck order, face-down tile or seed")


def _seed(db, game_id: str) -> str:
    from server.storage.models import Game

    with session_scope(db) as session:
        return session.get(Game, game_id).seed


def _mails(db, email: str) -> list[tuple]:
    render_pending(db)  # their words, as the sender writes them
    with session_scope(db) as session:
        return [(row.subject, row.text_body, row.html_body)
                for row in session.exec(select(Outbox).where(Outbox.to_email == email))]


def test_tokens_are_stored_hashed(api, db, ada, bob):
    rotated_from = ada.token
    ada.token = api.ok("POST", "/users/me/token", ada)["token"]
    game_id = api.new_game(ada, [bob])
    api.ok("POST", f"/games/{game_id}/commands", *_first_legal(api, game_id, ada, bob),
           headers={"Idempotency-Key": "k1"})
    dump = dump_database(db)
    assert game_id in dump and ada.email in dump  # the dump is the real one
    for token in (rotated_from, ada.token, bob.token):
        assert token not in dump
    status, body, _ = api.call("GET", "/users/me", None, headers={
        "Authorization": f"Bearer {rotated_from}"})
    assert status == 401, "a rotated token still works"


def _first_legal(api, game_id, *players):
    info = api.ok("GET", f"/games/{game_id}", players[0])
    seats = api.seats(game_id, players[0], list(players))
    player = seats[info["current_seat"]]
    legal = api.ok("GET", f"/games/{game_id}/legal", player)
    return player, {"command": legal["commands"][0], "expected_version": legal["version"]}


def test_a_token_cannot_act_for_another_seat(api, db, ada, bob, eve):
    game_id = api.new_game(ada, [bob])
    seats = api.seats(game_id, ada, [ada, bob])
    info = api.ok("GET", f"/games/{game_id}", ada)
    to_act = seats[info["current_seat"]]
    other = next(p for p in seats.values() if p is not to_act)
    legal = api.ok("GET", f"/games/{game_id}/legal", to_act)
    assert api.ok("GET", f"/games/{game_id}/legal", other)["commands"] == []
    before = event_log(db)
    refused = 0
    for command in legal["commands"]:
        body = {"command": command, "expected_version": legal["version"]}
        status, answer, _ = api.call("POST", f"/games/{game_id}/commands", other, body)
        assert status == 403 and "not yours" in answer["message"], (command, status, answer)
        status, answer, _ = api.call("POST", f"/games/{game_id}/commands", eve, body)
        assert status == 404, (command, status, answer)
        unseated = dict(command)
        unseated.pop("seat", None)  # the server fills in the caller's own seat
        status, answer, _ = api.call("POST", f"/games/{game_id}/commands", other,
                                     {"command": unseated, "expected_version": legal["version"]})
        assert status in (409, 422), (unseated, status, answer)
        refused += 3
    assert event_log(db) == before
    print(f"access: {refused} commands of the seat to act sent with the other player's or "
          f"a stranger's token: all refused, log unchanged")

