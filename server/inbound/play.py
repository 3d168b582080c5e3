"""Running a reply's lines in a game: each command through `service.apply_command` (the path the
API's command post and the scheduler take), each in a transaction of its own, in order, against
the version the email was written for; the first refusal stops the rest.

Each command is stored with an idempotency key derived from the Message-ID and the line: a
message handled again after a crash skips the lines it had applied (and a same message delivered
twice is already refused earlier, by its Message-ID).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import select

import engine
from engine.text import notation
from server.games import service
from server.inbound import table_words
from server.inbound.lines import Line
from server.inbound.table_words import is_table_word
from server.storage.db import session_scope
from server.storage.models import Game, IdempotencyRecord, Seat, User


@dataclass
class PlayReport:
    applied: list[Line] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)  # the applied commands' event rows
    refused: Line | None = None
    reason: str | None = None
    not_run: list[Line] = field(default_factory=list)
    words: list[str] = field(default_factory=list)  # the mail words met (show, help, ...)
    notes: list[str] = field(default_factory=list)  # what the table words did (table_words)
    version: int | None = None  # the game's version after the run


def line_key(message_key: str, line: Line) -> str:
    digest = hashlib.sha256(f"{message_key}\n{line.number}\n{line.text}".encode()).hexdigest()
    return f"mail:{digest[:40]}"


def run_lines(db, user_id: int, game_id: str, seat: int, expected: int, message_key: str,
              lines: list[Line], now: datetime) -> PlayReport:
    report = PlayReport(version=expected)
    for index, line in enumerate(lines):
        if line.kind == "word":
            report.words.append(line.word or "")
            if line.word in ("stop", "unsubscribe"):
                _stop(db, user_id, game_id, everything=line.word == "unsubscribe")
            elif is_table_word(line.word or ""):
                report.notes.append(table_words.act(db, user_id, game_id, line.word, now))
            continue
        if line.kind != "command":
            reason = line.error or "this is not a command"
            report.refused, report.reason, report.not_run = line, reason, lines[index + 1:]
            break
        reason = _run_one(db, user_id, game_id, seat, message_key, line, report, now)
        if reason is not None:
            report.refused, report.reason, report.not_run = line, reason, lines[index + 1:]
            break
    return report


def _run_one(db, user_id: int, game_id: str, seat: int, message_key: str, line: Line,
             report: PlayReport, now: datetime) -> str | None:
    """Apply one line; None when it was applied, else why it was not."""
    key = line_key(message_key, line)
    with session_scope(db) as session:
        done = session.get(IdempotencyRecord, (user_id, key))
        if done is not None:  # applied when this message was first handled
            report.applied.append(line)
            report.version = done.response.get("version", report.version)
            return None
        game = session.get(Game, game_id)
        if game is None or game.status == "open":
            return f"game {game_id} has not started yet"
        if game.status == "finished":
            return f"game {game_id} is over"
        if game.version != report.version:
            return (
                f"the game has moved on since the email you replied to (version "
                f"{report.version}, now {game.version}): look at the board below and send "
                "your commands again, replying to this email"
            )
        state = service.load_state(session, game)
        command = notation.parse(line.text, seat, view=engine.view(state, seat))
        try:
            applied = service.apply_command(session, game, command, f"user:{user_id}", now,
                                            state_before=state)
        except engine.RuleError as error:
            return str(error)
        except service.StaleVersion:
            return "another command landed first: look at the board below and send it again"
        session.add(IdempotencyRecord(user_id=user_id, key=key, request_hash=key[5:],
                                      status_code=201, response={"version": game.version},
                                      created_at=now))
        try:
            session.flush()
        except IntegrityError:  # the same line of the same message, handled at the same time
            session.rollback()
            return "this message is being handled already"
        report.applied.append(line)
        report.events.extend(applied.rows)
        report.version = game.version
    return None


def _stop(db, user_id: int, game_id: str, everything: bool) -> None:
    """`stop`: no more mail about this game; `unsubscribe`: no more mail at all."""
    with session_scope(db) as session:
        if everything:
            user = session.get(User, user_id)
            if user is not None:
                user.email_preference = "none"
                session.add(user)
            return
        seat = session.exec(
            select(Seat).where(Seat.game_id == game_id, Seat.user_id == user_id)
        ).first()
        if seat is not None:
            seat.mail_stopped = True
            session.add(seat)
