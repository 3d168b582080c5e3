"""The export with its table talk, when asked (issue 21): `?messages=true` adds the messages
the caller may read (a player both channels, anyone else the spectators'); off by default."""

from __future__ import annotations

from datetime import UTC, datetime

from server import create_app
from server.scheduler.automatic import play_due_turns
from server.storage.db import app_engine
from tests.server.scheduler.helpers import Table


def test_the_export_carries_the_messages_only_when_asked(database_url):
    app = create_app({"DATABASE_URL": database_url, "TESTING": True})
    table = Table(app)
    ada, bob, eve = table.register("Ada"), table.register("Bob"), table.register("Eve")
    game_id = table.new_game(ada, [bob], public=True)
    table._call("post", f"/games/{game_id}/messages", ada, text="for the table")
    table._call("post", f"/games/{game_id}/messages", eve, text="from the stands")
    for _ in range(5000):
        if table.game(game_id).status == "finished":
            break
        if not table.play_one(game_id):
            play_due_turns(app_engine(app), datetime.now(UTC))
    assert table.game(game_id).status == "finished"

    plain = table._call("get", f"/games/{game_id}/export", bob)
    assert "messages" not in plain and "for the table" not in str(plain)
    for reader, told in ((bob, ["for the table", "from the stands"]),
                         (eve, ["from the stands"]), (None, ["from the stands"])):
        export = table._call("get", f"/games/{game_id}/export?messages=true", reader)
        assert [m["text"] for m in export["messages"]] == told
        assert export["events"] == plain["events"]
    assert table._call("get", f"/games/{game_id}/export?messages=true", bob)["messages"][0][
        "channel"] == "players"


def test_the_messages_switch_is_true_or_false_only(database_url):
    app = create_app({"DATABASE_URL": database_url, "TESTING": True})
    table = Table(app)
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob])
    for spelling in ("yes", "1", "on", "True"):
        response = table.client.get(f"/api/v1/games/{game_id}/export?messages={spelling}",
                                    headers={"Authorization": f"Bearer {ada.token}"})
        assert response.status_code == 422, spelling
        assert f"must be true or false, not '{spelling}'" in response.get_json()["message"]
