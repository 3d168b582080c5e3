"""Keeping a plan: one per seat, replaced whole, cleared by any command of its player.

A plan is kept while it is not its player's turn; its lines are checked as lines (each a command,
or alternatives of commands: `move 3c or move 3d`); whether they are legal is only known when the
turn comes."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, delete, select

from engine.text import notation
from engine.text.wording import clean
from server.games.table import seat_names
from server.i18n import N_, Said
from server.storage.db import sql
from server.storage.models import Game, Plan
from server.storage.prepared import Prepared

MOST_LINES = 30
LONGEST_LINE = 200
SOURCES = ("mail", "page", "api")


class PlanRefused(ValueError):
    """A plan that cannot be kept; the message (an i18n.Said) says why and what to do. `status`:
    the HTTP status the API answers with."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.message = message
        self.status = status


def plan_lines(lines: list[str], names=None) -> list[str]:
    """The plan's lines, cleaned (blank lines and `#` comments dropped); PlanRefused naming the
    first line that is no command, with the command it may have meant."""
    kept = []
    for number, raw in enumerate(lines, start=1):
        if not isinstance(raw, str):
            raise PlanRefused(Said(N_("line {number} is not text: a plan is a list of command "
                                      "lines"), number=number))
        text = clean(raw.split("#", 1)[0]).strip()
        if not text:
            continue
        if len(text) > LONGEST_LINE:
            raise PlanRefused(Said(N_("line {number} is longer than {most} characters"),
                                   number=number, most=LONGEST_LINE))
        for choice in notation.alternatives(text):
            word = notation.command_word(choice.split()[0])
            if word not in notation.WORDS:
                guess = notation.meant(choice, names)
                hint = (Said(N_("did you mean `{guess}`?"), guess=guess) if guess else
                        Said(N_("the commands are {commands}"),
                             commands=", ".join(notation.WORDS)))
                raise PlanRefused(Said(N_('line {number}, "{text}", is not a command: {hint}'),
                                       number=number, text=text, hint=hint))
        kept.append(text)
    if not kept:
        raise PlanRefused(Said(N_("a plan needs at least one command line (to drop a plan, "
                                  "delete it)")))
    if len(kept) > MOST_LINES:
        raise PlanRefused(Said(N_("a plan has at most {most} lines, this one has {count}"),
                               most=MOST_LINES, count=len(kept)))
    return kept


def save(session, game: Game, seat: int, user_id: int, lines: list[str], now: datetime,
         source: str) -> Plan:
    """Keep `lines` as the seat's plan (replacing any); PlanRefused when the game is not under
    way, when it is the seat's turn, or when a line is no command."""
    if game.status != "active":
        raise PlanRefused(Said(N_("game {game} is not under way: a plan is for a game being "
                                  "played"), game=game.id), 409)
    if game.current_seat == seat:
        raise PlanRefused(Said(N_("it is your turn now: play your commands instead of planning "
                                  "them")), 409)
    kept = plan_lines(lines, seat_names(session, game.id))
    plan = session.get(Plan, (game.id, seat))
    if plan is None:
        plan = Plan(game_id=game.id, seat=seat, user_id=user_id, lines=kept, source=source,
                    made_at=now)
    else:
        plan.user_id, plan.lines, plan.source, plan.made_at = user_id, kept, source, now
    session.add(plan)
    return plan


def get(session, game_id: str, seat: int) -> Plan | None:
    """The seat's plan: call it only for the seat's own player."""
    return session.get(Plan, (game_id, seat))


def clear(unit, game_id: str, seat: int) -> bool:
    """Drop the seat's plan; whether there was one. `unit`: a Session or a Connection."""
    result = sql(unit).execute(delete(Plan).where(Plan.game_id == game_id, Plan.seat == seat))
    return bool(result.rowcount)


# Asked after every command (server/plans/reactions.py): a prepared statement, as the command
# post's own (server/storage/prepared.py).
_PLANNED_SEATS = Prepared(select(Plan.seat).where(Plan.game_id == bindparam("game_id")))


def planned_seats(unit, game_id: str) -> list[int]:
    return [row.seat for row in _PLANNED_SEATS.all(sql(unit), {"game_id": game_id})]


def take(unit, game_id: str, seat: int) -> tuple[int, list[str]] | None:
    """The seat's plan (its player and lines), dropped: it is about to be played."""
    row = sql(unit).execute(select(Plan.user_id, Plan.lines).where(
        Plan.game_id == game_id, Plan.seat == seat)).first()
    if row is None:
        return None
    clear(unit, game_id, seat)
    return row.user_id, list(row.lines)
