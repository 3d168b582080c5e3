"""Whole games played with nothing but `iridescia` commands against the real server over real
HTTP (tests/client/live.py): a solo game against the Rhom and a 3-player game, each to the end,
then `log`, `replay --to` and `verify` on the finished game's log."""

from __future__ import annotations

import json
import shlex

import pytest

MAX_ROUNDS = 400


def profile_runner(run, live):
    def as_player(profile: str, *args):
        result = run("--profile", profile, *args, env={"IRIDESCIA_SERVER": live.url})
        assert "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), result.output
        return result

    return as_player


def register(cli, profile: str, name: str, live) -> None:
    """Register as a player does: the token comes from confirming the mailed code."""
    email = f"{name.lower()}@example.org"
    result = cli(profile, "register", "--name", name, "--email", email)
    assert result.exit_code == 0, result.output
    result = cli(profile, "confirm", "--code", live.mailed_code(email))
    assert result.exit_code == 0 and "Token of" in result.output, result.output


def typed(cli, profile: str, game: str, line: str):
    """Play a notation line as `legal` printed it: the game goes after its first word."""
    word, *rest = shlex.split(line)
    return cli(profile, word, game, *rest)


def listed_lines(cli, profile: str, game: str) -> list[str]:
    """The notation lines `legal` prints, without its closing how-to line (and the line saying
    when the server will decide, when there is a deadline)."""
    lines = cli(profile, "legal", game).output.splitlines()
    if lines and lines[-1].startswith("The server will decide at "):
        lines = lines[:-1]
    assert lines[-1].startswith("To play one here, put the game after its first word: iridescia ")
    return lines[:-1]


def game_json(cli, profile: str, game: str) -> dict:
    result = cli(profile, "games", "--json")
    assert result.exit_code == 0, result.output
    return next(g for g in json.loads(result.output) if g["id"] == game)


def check_log_replay_verify(cli, profile: str, game: str, tmp_path) -> None:
    told = cli(profile, "log", game, "--text")
    assert told.exit_code == 0, told.output
    lines = told.output.splitlines()
    assert lines[:2][0] == "Setup" and lines[1].startswith("  The game began; the order of play")
    assert "Turn 1: " in told.output and "_" not in told.output  # no raw identifier
    scores = lines[lines.index("Final scores:") + 1:]
    assert scores and all(line.startswith("  ") and " points (" in line for line in scores)
    log_file = tmp_path / f"{game}.jsonl"
    result = cli(profile, "log", game, "-o", str(log_file))
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in log_file.read_text().splitlines()]
    header = records[0]
    assert header["record"] == "game" and header["seed"] and header["outcome"]
    events = [r for r in records if r["record"] == "event"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))

    from_file = cli(profile, "replay", "--file", str(log_file), "--to", "5", "--no-color")
    assert from_file.exit_code == 0, from_file.output
    from_server = cli(profile, "replay", game, "--to", "5", "--no-color")
    assert from_server.exit_code == 0, from_server.output
    assert from_file.output.splitlines()[0].startswith(f"Game {game} (")
    # The file is replayed offline as a spectator; the server shows my own seat: same board.
    board = [line for line in from_file.output.splitlines() if line[:6] in
             ("Castle", "Ruins ", "Forest", "Canyon", "Desert")]
    assert board and all(line in from_server.output.splitlines() for line in board)

    verified = cli(profile, "verify", "--file", str(log_file))
    assert verified.exit_code == 0, verified.output
    assert verified.output.endswith("OK\n")
    assert f"commands: {len([r for r in records if r['record'] == 'command'])} re-decided" \
        in verified.output

    # One changed die in the log is found, and named.
    tampered = tmp_path / "tampered.jsonl"
    lines = log_file.read_text().splitlines()
    for index, line in enumerate(lines):
        record = json.loads(line)
        if record["record"] == "event" and record["seq"] > 2:
            record["payload"]["tampered"] = True
            lines[index] = json.dumps(record)
            seq = record["seq"]
            break
    tampered.write_text("\n".join(lines) + "\n")
    broken = cli(profile, "verify", "--file", str(tampered))
    assert broken.exit_code == 1
    assert broken.output.startswith(f"Error: DIVERGES: event #{seq} (")
    assert "tampered: the log has True, the engine decides None" in broken.output


def rhom_is_playable() -> bool:
    from engine import simulate

    record = simulate.play_game(simulate.make_options(1), "probe", max_commands=50)
    return "not implemented" not in (record.error or "")


def test_solo_game_against_the_rhom(run, live, tmp_path):
    if not rhom_is_playable():
        pytest.skip("engine: the Rhom is still a stub (rhom_turn raises 'not implemented')")
    cli = profile_runner(run, live)
    register(cli, "ada", "Ada", live)
    created = cli("ada", "new", "--seats", "1", "--rhom-delay", "0", "--json")
    assert created.exit_code == 0, created.output
    game = json.loads(created.output)["id"]
    started = cli("ada", "start", game)  # a solo game may already be running
    assert started.exit_code in (0, 1), started.output

    waited = cli("ada", "wait", game, "--timeout", "30")
    assert waited.exit_code == 0, waited.output
    shown = cli("ada", "show", game, "--no-color")
    assert shown.exit_code == 0, shown.output
    assert "the Rhom" in shown.output and "Rhom deck" in shown.output
    assert max(len(line) for line in shown.output.splitlines()) <= 80

    # The first turn by hand, with lines `legal` printed: reveal, move, end.
    for expected in ("reveal", "move"):
        first = next(line for line in listed_lines(cli, "ada", game)
                     if line.startswith(expected + " "))
        played = typed(cli, "ada", game, first)
        assert played.exit_code == 0, played.output
    for _ in range(5):  # a rainbow tile or a full hold asks first; then the turn can end
        listed = listed_lines(cli, "ada", game)
        line = "end" if "end" in listed else listed[0]
        played = typed(cli, "ada", game, line)
        assert played.exit_code == 0, played.output
        if line == "end":
            break
    else:
        pytest.fail("the first turn never offered `end`")

    result = cli("ada", "autoplay", game, "--policy", "greedy", "--until-end", "--quiet",
                 "--seed", "1")
    assert result.exit_code == 0, result.output
    assert result.output.endswith("The game is over.\n")
    final = cli("ada", "show", game, "--no-color")
    assert "Game over." in final.output and "Final scores" in final.output
    check_log_replay_verify(cli, "ada", game, tmp_path)


def test_three_player_game_to_the_end(run, live, tmp_path):
    cli = profile_runner(run, live)
    players = {"ada": "Ada", "bob": "Bob", "cy": "Cy"}
    for profile, name in players.items():
        register(cli, profile, name, live)
    created = cli("ada", "new", "--seats", "3", "--mining-cost", "3", "--json")
    assert created.exit_code == 0, created.output
    game = json.loads(created.output)["id"]
    for profile in ("bob", "cy"):
        invited = cli("ada", "invite", game, f"{players[profile].lower()}@example.org", "--json")
        assert invited.exit_code == 0, invited.output
        joined = cli(profile, "join", json.loads(invited.output)["join_code"])
        assert joined.exit_code == 0, joined.output
    started = cli("bob", "start", game)
    assert started.exit_code == 0, started.output
    assert "status" not in started.output and "active" in started.output.splitlines()[0]

    # Whoever starts plays the first turn by hand; the others see that it is not their turn.
    first = next(p for p in players if game_json(cli, p, game)["is_my_turn"])
    others = [p for p in players if p != first]
    waiting = cli(others[0], "legal", game).output
    assert waiting.startswith("Nothing to do now. Waiting for ") and "seat" not in waiting
    listed = cli(first, "legal", game).output.splitlines()
    assert listed[-1].startswith("The server will decide at ")  # the turn's deadline
    reveal = listed_lines(cli, first, game)[-1]
    assert typed(cli, first, game, reveal).exit_code == 0

    for _ in range(MAX_ROUNDS):
        if game_json(cli, "ada", game)["status"] == "finished":
            break
        for profile in players:
            result = cli(profile, "autoplay", game, "--policy", "greedy", "--quiet",
                         "--seed", profile)
            assert result.exit_code == 0, result.output
    else:
        pytest.fail(f"the game did not end within {MAX_ROUNDS} rounds")

    final = cli("cy", "show", game, "--no-color")
    assert final.exit_code == 0
    assert "Game over." in final.output
    lines = final.output.splitlines()
    scores = lines[lines.index("Final scores") + 2:]
    assert sorted(line.split()[1] for line in scores) == ["Ada", "Bob", "Cy"]
    check_log_replay_verify(cli, "bob", game, tmp_path)


def test_autoplay_plays_a_turn_on_one_read_of_the_legal_commands(run, live):
    """Each command's answer lists what may follow, so a turn of several commands reads
    GET /legal only at its start (and once more to find the turn over)."""
    cli = profile_runner(run, live)
    register(cli, "ada", "Ada", live)
    register(cli, "bob", "Bob", live)
    created = cli("ada", "new", "--seats", "2", "--json")
    game = json.loads(created.output)["id"]
    invited = cli("ada", "invite", game, "bob@example.org", "--json")
    assert cli("bob", "join", json.loads(invited.output)["join_code"]).exit_code == 0
    assert cli("ada", "start", game).exit_code == 0
    first = next(p for p in ("ada", "bob") if game_json(cli, p, game)["is_my_turn"])

    requests: list[tuple[str, str]] = []
    serve = live.app.wsgi_app

    def counting(environ, start_response):
        requests.append((environ["REQUEST_METHOD"], environ["PATH_INFO"]))
        return serve(environ, start_response)

    live.app.wsgi_app = counting
    try:
        result = cli(first, "autoplay", game, "--policy", "greedy", "--seed", "2")
    finally:
        live.app.wsgi_app = serve
    assert result.exit_code == 0, result.output
    posts = [r for r in requests if r == ("POST", f"/api/v1/games/{game}/commands")]
    reads = [r for r in requests if r == ("GET", f"/api/v1/games/{game}/legal")]
    assert len(posts) >= 3  # reveal, move, ..., end
    lines = result.output.splitlines()
    assert len(lines) == len(posts) + 1 and lines[-1].startswith(f"Sent {len(posts)} commands.")
    assert len(reads) == 2


def test_a_game_against_a_bot_seat_and_my_turn_played_by_the_strong_search(run, live, monkeypatch):
    import engine
    from engine.bots import hard, strong
    from server.games import service

    monkeypatch.setattr(hard, "HARD_BUDGET", strong.Budget(playouts=4))
    # A seed under which the creator (first in the lobby) plays first, with her word mixed in
    # (the bot gives none; either order of the two words).
    from engine import seeds

    def ada_first(seed: str) -> bool:
        return all(engine.rng_for(seeds.dice_seed(seed, words, seeds.MIXED), 0).randrange(2) == 0
                   for words in (["e2e-word", ""], ["", "e2e-word"]))

    seed = next(f"bot-e2e-{i}" for i in range(1000) if ada_first(f"bot-e2e-{i}"))
    monkeypatch.setattr(service, "new_seed", lambda: (seed, service.seed_hash(seed)))
    cli = profile_runner(run, live)
    register(cli, "ada", "Ada", live)
    refused = cli("ada", "new", "--seats", "2", "--bots", "2")
    assert refused.exit_code == 2 and "at most --bots 1 with --seats 2" in refused.output
    created = cli("ada", "new", "--seats", "2", "--bots", "1", "--bot-policy", "greedy",
                  "--word", "e2e-word", "--json")
    assert created.exit_code == 0, created.output
    game = json.loads(created.output)
    assert game["status"] == "active" and game["is_my_turn"]  # me and a bot: nobody to wait for
    [bot] = [p for p in game["players"] if p["kind"] == "bot"]
    # The old policy name is still taken, as the level it became.
    assert bot["name"] == "Bot Amber (medium)" and bot["user_id"] is None
    played = cli("ada", "autoplay", game["id"], "--policy", "strong", "--seed", "1")
    assert played.exit_code == 0, played.output
    lines = played.output.splitlines()
    assert len(lines) >= 3 and lines[-1].startswith("Sent ")
    # The server's bot plays its turn by itself; then it is my turn again.
    waited = cli("ada", "wait", game["id"], "--timeout", "60")
    assert waited.exit_code == 0, waited.output
    assert game_json(cli, "ada", game["id"])["is_my_turn"]
