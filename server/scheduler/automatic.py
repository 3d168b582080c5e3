"""Turns the server plays itself, through the same `apply_command` as every player.

- the Rhom's turn (`engine.bots.policies.automatic_command`), once the game's Rhom delay has passed;
- a removal turn, after the game's grace period (or the turn deadline, for a player who chose to
  choose their removals): `automatic_command` removes a tile the rearmost explorer still
  exploring could move onto next (`engine.bots.policies.default_removal`, by the game's rules
  version); with time to choose the player was told it was their turn, so they are told which
  tile went;
- a bot seat's turn (after the Rhom's delay): its engine policy (`engine.bots`) plays the whole
  turn from the seat's view, thought out before the game is locked (bot_turns.py); its removal
  turns are the server's automatic removal; nobody is told;
- never a turn of a player on vacation, nor anything in a paused game (server/games/holds.py):
  at the player's return the clock starts again, with the time they had left;
- a human's turn past its deadline, or any turn of an absent seat: the player's stand-in plays
  the whole turn, the bot level they chose (server/games/seat_kinds.py; `easy` never spends coins
  or items). A missed deadline counts a missed turn; after the
  game's `absent_after_missed` of them in a row the seat is absent and is played at once from
  then on, until the player sends a command again. The player is told by email each time a
  deadline passes; absent seats are not emailed for every turn.

Several games share a transaction (`AUTOMATIC_BATCH` claimed at once, as plain rows: server/
games/rows.py), their writes held back to the batch's end (`play_batch`): a game that fails drops
its own and is tried again `RETRY_AFTER_ERROR` later, the others' turns are committed.
(`apply_command` rolls the whole transaction back on a version conflict, which cannot happen to a
claimed, locked game; should it ever, the batch's other games are simply still due and played by
the next batch.)
"""

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import delete, update
from sqlalchemy.exc import DBAPIError
from sqlmodel import select

import engine
from engine.bots.policies import automatic_command
from engine.text import notation
from server import wakeups
from server.games import seeding
from server.games.cache import CACHE
from server.games.deferred import DeferredWrites, LostGameRow, deferring
from server.games.due_times import HUMAN_DECISIONS, update_due_times
from server.games.rows import GameRow
from server.games.service import SERVER_ACTOR, apply_command, load_state, write_game_row
from server.games.table import forget_table, load_tables, table_of, write_seat
from server.notifications import enqueue
from server.notifications.policy import Notice, Participant, played_for_you
from server.plans.playing import PlanPlayed
from server.plans.playing import play as play_plan
from server.scheduler.batch_states import preload_states
from server.scheduler.bot_turns import bot_turn, plan_bot_turns, stand_in_turn
from server.scheduler.claims import claim_game_rows
from server.storage.db import session_scope
from server.storage.models import Game, Outbox, Seat
from server.webhooks.queue import load_hooks

log = logging.getLogger(__name__)
RETRY_AFTER_ERROR = timedelta(minutes=5)
# Games claimed per transaction. Each is a few commands; on SQLite the batch holds the write
# lock throughout, so it stays small enough not to keep players' commands waiting long.
AUTOMATIC_BATCH = 50


@dataclass
class AutomaticTurn:
    game_id: str
    seat: int
    kind: str  # rhom | removal | deadline | absent | bot | plan
    version_before: int
    commands: list[dict] = field(default_factory=list)
    said: list[tuple] = field(default_factory=list, repr=False)  # log lines, for after the commit


def play_due_turns(db, now: datetime, budget=None) -> list[AutomaticTurn]:
    """Play every automatic turn due at `now`, `AUTOMATIC_BATCH` games per transaction, while
    `budget` (server.scheduler.budget.Budget, asked before each game) has time left."""
    played: list[AutomaticTurn] = []
    given_up: set[str] = set()
    thinking = None if budget is None else type(budget)(budget.seconds)
    plans = plan_bot_turns(db, now, thinking, AUTOMATIC_BATCH)
    if budget is not None:
        budget.restart()  # the thinking is not the game work's time
    while True:
        batch = play_batch(db, now, budget, given_up, plans)
        if batch is None:
            return played
        played.extend(batch)
        if budget is not None and not budget.left():
            return played


def play_batch(db, now: datetime, budget=None, given_up: set[str] | None = None,
               plans: dict | None = None):
    """Claim up to `AUTOMATIC_BATCH` games with an automatic turn due at `now` and play them in
    one transaction, asking `budget` before each game after the first (the games left over stay
    due). Returns the turns played, None when no game was due. Games in `given_up` (failed in
    this tick) are not claimed again; a failing game is added.

    Each game's turn is worked out with its writes held back (server/games/deferred.py); a game
    that fails drops its own and is tried again `RETRY_AFTER_ERROR` later, and the writes of the
    others go at the end, one executemany per statement. Should that fail, the batch is rolled
    back and played again game by game (`play_batch_one_by_one`)."""
    given_up = set() if given_up is None else given_up
    plans = {} if plans is None else plans
    try:
        played = _play_held_back(db, now, budget, given_up, plans)
    except (DBAPIError, LostGameRow):
        log.exception("a batch of automatic turns could not be written; playing it game by game")
        return play_batch_one_by_one(db, now, None, given_up, plans)
    if played is not None:
        _log_turns(played)
    return played


def _play_held_back(db, now, budget, given_up: set[str], plans: dict):

    turns: list[AutomaticTurn] = []
    with session_scope(db) as session:
        games = claim_game_rows(session, Game.automatic_due_at, now, given_up,
                                AUTOMATIC_BATCH)
        if not games:
            return None
        preload_states(session, games)
        load_tables(session, games)
        load_hooks(session, [game.id for game in games])
        batch = DeferredWrites()
        wakeups.hold(session)
        for index, game in enumerate(games):
            if index and budget is not None and not budget.left():
                break  # the rest stay due for the next batch or tick
            try:
                with deferring(session, DeferredWrites()) as writes:
                    turn = _play(session, game, now, plans)
            except Exception:
                log.exception(
                    "automatic turn in game %s failed; retrying in %s", game.id, RETRY_AFTER_ERROR
                )
                given_up.add(game.id)
                CACHE.forget_pending(session, game.id)  # its states were never written
                forget_table(session, game.id)
                _retry_later(session, game.id, now)
                continue
            batch.merge(writes)
            if turn is not None:
                turns.append(turn)
        batch.flush(session.connection())
        wakeups.send_held(session)
    return turns


def play_batch_one_by_one(db, now: datetime, budget=None, given_up: set[str] | None = None,
                          plans: dict | None = None):
    """`play_batch`, each game's writes sent as it plays, in a savepoint of its own: a game
    whose writes fail is rolled back alone. (`apply_command` rolls the whole transaction back
    on a version conflict, which cannot happen to a claimed, locked game; should it ever, the
    batch's other games are simply still due and played by the next batch.)"""
    given_up = set() if given_up is None else given_up
    plans = {} if plans is None else plans
    turns: list[AutomaticTurn] = []
    failed: list[str] = []
    lost_batch = False
    with session_scope(db) as session:
        games = claim_game_rows(session, Game.automatic_due_at, now, given_up,
                                AUTOMATIC_BATCH)
        if not games:
            return None
        preload_states(session, games)
        load_tables(session, games)
        load_hooks(session, [game.id for game in games])
        outer = session.get_transaction()
        for index, game in enumerate(games):
            if index and budget is not None and not budget.left():
                break  # the rest stay due for the next batch or tick
            savepoint = session.begin_nested()
            try:
                turn = _play(session, game, now, plans)
                savepoint.commit()
            except Exception:
                log.exception(
                    "automatic turn in game %s failed; retrying in %s", game.id, RETRY_AFTER_ERROR
                )
                given_up.add(game.id)
                failed.append(game.id)
                if not outer.is_active:  # apply_command rolled everything back (see above)
                    lost_batch, turns = True, []
                    break
                if savepoint.is_active:
                    # (the state cache drops what this transaction would have published: see
                    # server.games.cache; the savepoint's states must never be cached)
                    savepoint.rollback()
                forget_table(session, game.id)
                _retry_later(session, game.id, now)
                continue
            if turn is not None:
                turns.append(turn)
    if lost_batch:
        _postpone(db, failed[-1], now)
    _log_turns(turns)
    return turns


def _retry_later(session, game_id: str, now: datetime) -> None:
    session.execute(
        update(Game)
        .where(Game.id == game_id)
        .values(automatic_due_at=now + RETRY_AFTER_ERROR)
        .execution_options(synchronize_session=False)
    )


def _log_turns(turns: list[AutomaticTurn]) -> None:
    for turn in turns:
        for line in turn.said:
            (log.warning if turn.kind == "deadline" else log.info)(*line)


def _postpone(db, game_id: str, now: datetime) -> None:
    with session_scope(db) as session:
        game = session.get(Game, game_id)
        if game is not None and game.automatic_due_at is not None and game.automatic_due_at <= now:
            game.automatic_due_at = now + RETRY_AFTER_ERROR
            session.add(game)


def _apply(session, game: GameRow, state, command, now: datetime):
    """Apply one server command; the state after it."""

    return apply_command(session, game, command, SERVER_ACTOR, now, state_before=state).state


def _play(session, game: GameRow, now: datetime, plans: dict) -> AutomaticTurn | None:

    state = load_state(session, game)
    if state is None or engine.is_terminal(state):
        game.automatic_due_at = None
        write_game_row(session, game, game.version)
        return None
    if game.held_since is not None or game.paused_at is not None:
        # Due at a player's return from vacation (or the game was paused since it was due):
        # nothing is played; the clock starts again, or stays stopped.

        update_due_times(session, game, state, now)
        write_game_row(session, game, game.version)
        return None
    seat = engine.current_player(state)
    kind = engine.pending_kind(state)
    turn_started_at = game.turn_started_at or now
    if kind in ("rhom", "removal"):
        command = automatic_command(state)
        turn = AutomaticTurn(game.id, seat, kind, game.version, [engine.command_to_dict(command)])
        _apply(session, game, state, command, now)
        turn.said.append(
            ("game %s: the server played the %s turn of seat %d", game.id, kind, seat)
        )
        row = _seat(session, game, seat)
        if (
            kind == "removal"
            and row
            and (game.removal_grace_hours > 0 or row.choose_removals)
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
    if row is not None and row.kind == "bot":
        return _play_bot(session, game, state, seat, now, plans)
    planned = play_plan(session, game, state, seat, now)
    if planned is not None:
        return _played_plan(session, game, seat, row, planned, now)
    absent = row is not None and row.absent
    turn = AutomaticTurn(game.id, seat, "absent" if absent else "deadline", game.version)
    commands = plans.get((game.id, game.version))  # thought out before the lock (bot_turns.py)
    if commands is None:
        commands = stand_in_turn(seeding.dice_seed(game), game.version, state, seat,
                                 row.stand_in if row is not None else None)
    for command in commands:
        turn.commands.append(engine.command_to_dict(command))
        state = _apply(session, game, state, command, now)
    if absent:
        turn.said.append(
            ("game %s: seat %d is absent; the server played its turn", game.id, seat)
        )
        return turn

    missed = row.missed_turns + 1
    became_absent = game.absent_after_missed > 0 and missed >= game.absent_after_missed
    write_seat(session, row, missed, became_absent)
    turn.said.append(
        (
            "game %s: seat %d missed the deadline; the server played the turn (%d missed in a "
            "row%s)",
            game.id,
            seat,
            row.missed_turns,
            ", now absent" if became_absent else "",
        )
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


def _play_bot(session, game: GameRow, state, seat: int, now: datetime, plans: dict) -> AutomaticTurn:
    """A bot seat's whole turn: the plan thought out before the lock (bot_turns.py), or, when
    the game moved on since, the turn thought out now."""

    row = session.exec(select(Seat).where(Seat.game_id == game.id, Seat.seat == seat)).one()
    commands = plans.get((game.id, game.version))
    if commands is None:
        commands = bot_turn(seeding.dice_seed(game), game.version, state, seat,
                            row.bot_policy)
    turn = AutomaticTurn(game.id, seat, "bot", game.version)
    for command in commands:
        turn.commands.append(engine.command_to_dict(command))
        state = _apply(session, game, state, command, now)
    turn.said.append(("game %s: %s played seat %d's turn", game.id, row.name, seat))
    return turn


def _played_plan(session, game: GameRow, seat: int, row, planned: PlanPlayed,
                 now: datetime) -> AutomaticTurn:
    """The seat's plan was played (server/plans/): its player gets one mail saying what was
    played and what is left, in place of the your-turn mail queued when the turn came."""
    turn = AutomaticTurn(game.id, seat, "plan", game.version)
    turn.said.append(("game %s: seat %d's plan played %d command(s)", game.id, seat,
                      len(planned.played)))
    if not planned.played:  # nothing changed: the turn's own due times again
        update_due_times(session, game, planned.state, now)
        write_game_row(session, game, game.version)
    if row is None or row.user_id is None:
        return turn
    session.execute(delete(Outbox).where(
        Outbox.game_id == game.id, Outbox.seat == seat, Outbox.kind == "your_turn",
        Outbox.status == "pending"))
    extra = {"plan_played": planned.played, "plan_left": planned.left,
             "plan_stopped": planned.stopped}
    still_yours = (not engine.is_terminal(planned.state)
                   and engine.current_player(planned.state) == seat)
    if still_yours:
        notice = Notice("your_turn", seat, row.user_id, f"{game.id}/v{game.version}/plan/seat{seat}")
    else:
        notice = Notice("played_for_you", seat, row.user_id,
                        f"{game.id}/v{game.version}/plan-played/seat{seat}")
        extra.update(reason="your plan played it", played=planned.played)
    if enqueue(session, game, [notice], now, extra, users=table_of(session, game)[1]):
        wakeups.note(session, "mail")
    return turn


def _seat(session, game: GameRow, seat: int):
    return next((s for s in table_of(session, game)[0] if s.seat == seat), None)


def _tell(session, game: GameRow, row, turn: AutomaticTurn, turn_started_at, now, reason) -> None:
    participant = Participant(row.seat, row.kind, row.user_id, row.absent)
    notice = played_for_you(game.id, participant, int(turn_started_at.timestamp()))
    played = [_say(c) for c in turn.commands]
    users = table_of(session, game)[1]
    if enqueue(session, game, [notice], now, {"reason": reason, "played": played}, users=users):
        wakeups.note(session, "mail")


def _say(command: dict) -> str:
    """What the server played, as the notation line the player would have typed."""

    played = engine.command_from_dict(command)
    return notation.format(played) if notation.has_notation(played) else "the Rhom's turn"
