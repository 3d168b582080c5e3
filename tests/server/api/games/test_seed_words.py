"""Seeds no one can choose (engine/seeds.py): each player's word for the dice, given when they
sit down, is mixed with the server's seed at the start; the export carries the words and
`engine.audit` (what `iridescia verify` and the /verify page run) checks the dice with them."""

from __future__ import annotations

from unittest import mock

import pytest

from engine import audit, seeds
from server import create_app
from server.games import service
from server.storage.db import app_engine, session_scope
from server.storage.models import Game
from tests.server.scheduler.helpers import Table


@pytest.fixture
def table(database_url):
    return Table(create_app({"DATABASE_URL": database_url, "TESTING": True}))


def create(table, player, seed="s3cret", **body):
    with mock.patch.object(service, "new_seed", lambda: (seed, service.seed_hash(seed))):
        return table._call("post", "/games", player, **body)


def test_the_words_of_both_players_make_the_dice_in_table_order(table):
    ada, bob = table.register("Ada"), table.register("Bob")
    game = create(table, ada, seats=2, contribution="tolami")
    table._call("post", "/games/join", bob, code=game["join_code"], contribution="veruko")
    started = table._call("post", f"/games/{game['id']}/start", ada)
    assert started["seed_hash"] == seeds.seed_hash("s3cret")  # the commitment made at creation
    dice = seeds.dice_seed("s3cret", ["tolami", "veruko"], seeds.MIXED)
    with session_scope(app_engine(table.app)) as session:
        assert session.get(Game, game["id"]).play_seed == dice
    # Nothing of the words or the seed shows while the game runs.
    shown = str(table._call("get", f"/games/{game['id']}", bob))
    assert "tolami" not in shown and "veruko" not in shown and dice not in shown


def test_a_finished_games_export_carries_the_words_and_verifies(table):
    ada = table.register("Ada")
    game = create(table, ada, seats=1, rhom=True, contribution="kesora-7")
    table.play_to_the_end(game["id"])
    export = table._call("get", f"/games/{game['id']}/export", ada)
    assert export["seed_rule"] == "mixed-1"
    assert export["seed_contributions"] == {str(ada.id): "kesora-7"}
    lines = audit.verify_export(export)
    assert lines[1] == ("dice: sha256 of the server's seed and the players' words in table "
                        "order (Ada 'kesora-7')")
    # Without the word the dice of the log do not come out: the word really was mixed in.
    with pytest.raises(audit.Diverges, match="event #1 \\(game_started\\)"):
        audit.verify_export({**export, "seed_contributions": {str(ada.id): "kesora-8"}})


def test_a_game_of_the_old_rule_keeps_the_servers_seed(table):
    """A game made before the players' words (no seed rule) is dealt from the server's seed
    alone, whatever word its seat holds, and its export verifies under that rule."""
    ada = table.register("Ada")
    bob = table.register("Bob")
    game = create(table, ada, seats=2, contribution="tolami")
    with session_scope(app_engine(table.app)) as session:
        session.get(Game, game["id"]).seed_rule = None
        session.commit()
    table._call("post", "/games/join", bob, code=game["join_code"], contribution="veruko")
    table._call("post", f"/games/{game['id']}/start", ada)
    with session_scope(app_engine(table.app)) as session:
        assert session.get(Game, game["id"]).play_seed is None


@pytest.mark.parametrize("word", ["two words", "x" * 65, "semi;colon"])
def test_a_word_that_is_not_one_plain_word_is_refused(table, word):
    ada = table.register("Ada")
    response = table.client.post("/api/v1/games", json={"seats": 2, "contribution": word},
                                 headers={"Authorization": f"Bearer {ada.token}"})
    assert response.status_code == 422
    assert response.get_json()["message"] == (
        "invalid request: contribution: give one word of up to 64 letters, digits, '-' or '_', "
        "or leave it out")
