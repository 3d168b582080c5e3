"""Turns the server plays itself, through the same `apply_command` as every player.

- the Rhom's turn (`engine.policies.automatic_command`), once the game's Rhom delay has passed;
- a removal turn, after the game's grace period: `automatic_command` removes the tile that hurts
  the players still exploring the least (`engine.policies.default_removal`); with a grace period
  the player was told it was their turn, so they are told which tile went;
- a human's turn past its deadline, or any turn of an absent seat: `cautious_policy` plays the
  whole turn (never spends coins or items). A missed deadline counts a missed turn; after the
  game's `absent_after_missed` of them in a row the seat is absent and is played at once from
  then on, until the player sends a command again. The player is told by email each time a
  deadline passes; absent seats are not emailed for every turn.
"""

import logging
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlmodel import select

from server.db import session_scope
from server.models import Game, Seat
from server.notifications import SERVER_ACTOR, enqueue
from server.notifications.policy import Participant, played_for_you
from server.scheduler.claims import claim_game
from server.scheduler.timers import HUMAN_DECISIONS

log = logging.getLogger(__name__)
# A turn the cautious policy could not finish in this many commands is a bug, not a long turn.
MOST_COMMANDS_PER_TURN = 60
RETRY_AFTER_ERROR = timedelta(minutes=5)


@dataclass
class AutomaticTurn:
    game_id: str
    seat: int
    kind: str  # rhom | removal | deadline | absent
    version_before: int
    commands: list[dict] = field(default_factory=list)


def _rng(game: Game) -> random.Random:
    # Seeded by the game's secret and version: replaying the decision gives the same turn.
    return random.Random(f"{game.seed}/auto/{game.version}")


def play_due_turns(db, now: datetime, limit: int = 200) -> list[AutomaticTurn]:
    """Play every automatic turn due at `now` (at most `limit`), each in its own transaction."""
    played: list[AutomaticTurn] = []
    given_up: set[str] = set()
    for _ in range(limit):
        game_id = None
        try:
            with session_scope(db) as session:
                game = claim_game(session, Game.automatic_due_at, now, given_up)
                if game is None:
                    break
                game_id = game.id
                turn = _play(session, game, now)
        except Exception:
            if game_id is None:
                raise  # no claim at all (the database is unreachable): the tick logs it
            given_up.add(game_id)
            log.exception(
                "automatic turn in game %s failed; retrying in %s", game_id, RETRY_AFTER_ERROR
            )
            _postpone(db, game_id, now)
            continue
        if turn is not None:
            played.append(turn)
    return played


def _postpone(db, game_id: str, now: datetime) -> None:
    with session_scope(db) as session:
        game = session.get(Game, game_id)
        if game is not None and game.automatic_due_at is not None and game.automatic_due_at <= now:
            game.automatic_due_at = now + RETRY_AFTER_ERROR
            session.add(game)


def _seat(session, game: Game, seat: int) -> Seat | None:
    return session.exec(select(Seat).where(Seat.game_id == game.id, Seat.seat == seat)).first()


def _play(session, game: Game, now: datetime) -> AutomaticTurn | None:
    import engine
    from engine.policies import automatic_command, cautious_policy
    from server.games.service import apply_command, load_state

    state = load_state(session, game)
    if state is None or engine.is_terminal(state):
        game.automatic_due_at = None
        session.add(game)
        return None
    seat = engine.current_player(state)
    kind = engine.pending_kind(state)
    turn_started_at = game.turn_started_at or now
    if kind in ("rhom", "removal"):
        command = automatic_command(state)
        turn = AutomaticTurn(game.id, seat, kind, game.version, [engine.command_to_dict(command)])
        apply_command(session, game, command, SERVER_ACTOR, now)
        log.info("game %s: the server played the %s turn of seat %d", game.id, kind, seat)
        row = _seat(session, game, seat)
        if (
            kind == "removal"
            and game.removal_grace_hours > 0
            and row
            and row.user_id
            and not row.absent
        ):
            # They were told it was their removal turn: tell them which tile went.
            _tell(
                session,
                game,
                row,
                turn,
                turn_started_at,
                now,
                "the grace period for choosing passed",
            )
        return turn
    if kind not in HUMAN_DECISIONS:
        raise RuntimeError(f"game {game.id}: nothing automatic to do for pending kind {kind!r}")

    row = _seat(session, game, seat)
    absent = row is not None and row.absent
    turn = AutomaticTurn(game.id, seat, "absent" if absent else "deadline", game.version)
    while engine.current_player(state) == seat and not engine.is_terminal(state):
        if len(turn.commands) >= MOST_COMMANDS_PER_TURN:
            raise RuntimeError(
                f"game {game.id}: the cautious policy did not end seat {seat}'s turn"
            )
        command = cautious_policy(state, seat, _rng(game))
        turn.commands.append(engine.command_to_dict(command))
        apply_command(session, game, command, SERVER_ACTOR, now)
        state = load_state(session, game)
    if absent:
        log.info("game %s: seat %d is absent; the server played its turn", game.id, seat)
        return turn

    row.missed_turns += 1
    became_absent = game.absent_after_missed > 0 and row.missed_turns >= game.absent_after_missed
    row.absent = became_absent
    session.add(row)
    log.warning(
        "game %s: seat %d missed the deadline; the server played the turn (%d missed in a row%s)",
        game.id,
        seat,
        row.missed_turns,
        ", now absent" if became_absent else "",
    )
    reason = "the deadline passed"
    if became_absent:
        reason += (
            f" ({row.missed_turns} turns missed in a row: your seat is now absent and the server "
            "plays your turns at once until you send a command again)"
        )
    if row.user_id is not None:
        _tell(session, game, row, turn, turn_started_at, now, reason)
    return turn


def _tell(
    session, game: Game, row: Seat, turn: AutomaticTurn, turn_started_at, now, reason
) -> None:
    participant = Participant(row.seat, row.kind, row.user_id, row.absent)
    notice = played_for_you(game.id, participant, int(turn_started_at.timestamp()))
    played = [_say(c) for c in turn.commands]
    enqueue(session, game, [notice], now, {"reason": reason, "played": played})


def _say(command: dict) -> str:
    fields = ", ".join(f"{k} {v}" for k, v in command.items() if k not in ("type", "seat"))
    return command["type"].replace("_", " ") + (f" ({fields})" if fields else "")
