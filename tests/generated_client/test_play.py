"""Whole games played through the client openapi-python-client generates from openapi.yaml,
against the real server over HTTP: typed models only (a command model per command, chosen from
the typed legal list), no dict built by hand."""

from __future__ import annotations

import importlib
import random
import time

from engine import commands as engine_commands
from server.api.engine_schemas.commands import schema_name


def _models(generated):
    return importlib.import_module(f"{generated.__name__}.models")


class _Tag:
    """The generated operations of one tag: ``_api(generated, "play").get_view`` is the module
    ``api.play.get_view`` (each operation is its own module, with sync() and friends)."""

    def __init__(self, package: str) -> None:
        self.package = package

    def __getattr__(self, operation: str):
        return importlib.import_module(f"{self.package}.{operation}")


def _api(generated, tag: str) -> _Tag:
    return _Tag(f"{generated.__name__}.api.{tag}")


def _player(generated, live, name: str):
    models = _models(generated)
    users = _api(generated, "users")
    anyone = generated.Client(base_url=live.url)
    asked = users.register_user.sync(client=anyone, body=models.UserCreate(
        name=name, email=f"{name}@example.org"))
    assert isinstance(asked, models.Accepted), asked  # the token travels by mail
    new = users.verify_address.sync(client=anyone, body=models.Code(
        code=live.mailed_code(f"{name}@example.org")))
    assert isinstance(new, models.Confirmed) and new.token, new
    return generated.AuthenticatedClient(base_url=live.url, token=new.token)


def _play_to_the_end(generated, game_id: str, players: list, rng: random.Random) -> set[str]:
    """Each player plays a random command of their typed legal list when it is their turn; the
    server plays the Rhom and the removals. The command models played, by class name."""
    models, games, play = _models(generated), _api(generated, "games"), _api(generated, "play")
    command_models = tuple(getattr(models, schema_name(t)) for t in engine_commands.COMMAND_TYPES)
    by_seat = {}
    for client in players:
        game = games.get_game.sync(game_id, client=client)
        by_seat[game.my_seat] = client
    played: set[str] = set()
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        game = games.get_game.sync(game_id, client=players[0])
        assert isinstance(game, models.Game), game
        if game.status == models.GameStatus.FINISHED:
            return played
        assert game.status == models.GameStatus.ACTIVE
        client = by_seat.get(game.current_seat)
        legal = play.get_legal.sync(game_id, client=client) if client else None
        assert legal is None or isinstance(legal, models.Legal), legal
        offered, version = (legal.commands, legal.version) if legal else ([], None)
        while offered:
            # Take back once a game (the typed UndoCommand works), then never: random undos
            # only make the game longer.
            undo = [c for c in offered if type(c).__name__ == "UndoCommand"]
            rest = [c for c in offered if type(c).__name__ != "UndoCommand"]
            command = undo[0] if undo and "UndoCommand" not in played else rng.choice(rest)
            assert isinstance(command, command_models), command
            result = play.post_command.sync(game_id, client=client, body=models.CommandRequest(
                command=command, expected_version=version))
            assert isinstance(result, models.CommandResult), (command, result)
            assert result.events, command
            played.add(type(command).__name__)
            # What the player may do next comes in the same answer.
            offered, version = result.legal, result.version
        time.sleep(0.02)  # the server's turn (the Rhom, a removal)
    raise AssertionError(f"game {game_id} did not end in 10 minutes")


def _check_the_end(generated, game_id: str, client, seats: int) -> None:
    models, play = _models(generated), _api(generated, "play")
    view = play.get_view.sync(game_id, client=client)
    assert isinstance(view, models.View), view
    assert view.over and isinstance(view.outcome, models.Outcome)
    export = play.export_game.sync(game_id, client=client)
    assert isinstance(export, models.Export), export
    assert export.events[-1].type_.value == "game_ended"
    assert isinstance(export.events[0], models.GameStartedEvent)
    assert isinstance(export.events[0].payload.item_deck, list)  # whole, after the end
    assert isinstance(export.commands[0].command, models.StartGameCommand)
    assert len(export.outcome.seats) == len(view.players) >= seats
    feed = play.list_events.sync(game_id, client=client)
    # The feed answers at most 500 events at a time (its default limit), the oldest first.
    assert isinstance(feed, models.Feed) and len(feed.events) == min(len(export.events), 500)
    assert feed.version == len(export.events)


def test_a_two_player_game_with_the_generated_client(generated, live):
    models, games, play = _models(generated), _api(generated, "games"), _api(generated, "play")
    ada, bob = _player(generated, live, "ada"), _player(generated, live, "bob")
    game = games.create_game.sync(client=ada, body=models.GameCreate(seats=2))
    assert isinstance(game, models.GameCreated), game
    assert game.status == models.GameStatus.OPEN
    joined = games.join_game.sync(client=bob, body=models.Join(code=game.join_code))
    assert isinstance(joined, models.Game), joined
    started = games.start_game.sync(game.id, client=ada)
    assert started.status == models.GameStatus.ACTIVE
    view = play.get_view.sync(game.id, client=bob)
    assert isinstance(view, models.View) and view.turn is not None
    assert {p.kind for p in view.players} == {models.ViewPlayerKind.HUMAN}
    played = _play_to_the_end(generated, game.id, [ada, bob], random.Random(2))
    assert {"RevealCommand", "MoveCommand", "EndTurnCommand"} <= played
    _check_the_end(generated, game.id, ada, 2)


def test_a_solo_game_against_the_rhom_with_the_generated_client(generated, live):
    models, games, play = _models(generated), _api(generated, "games"), _api(generated, "play")
    ada = _player(generated, live, "ada")
    game = games.create_game.sync(client=ada, body=models.GameCreate(seats=1))
    assert isinstance(game, models.GameCreated), game
    assert game.status == models.GameStatus.ACTIVE and game.rhom
    kinds = {p.kind for p in game.players}
    assert kinds == {models.PlayerKind.HUMAN, models.PlayerKind.RHOM}
    played = _play_to_the_end(generated, game.id, [ada], random.Random(3))
    assert "EndTurnCommand" in played
    _check_the_end(generated, game.id, ada, 1)
    export = play.export_game.sync(game.id, client=ada)
    assert any(isinstance(e, models.RhomCardDrawnEvent) for e in export.events)
