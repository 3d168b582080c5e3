"""Running a reply's lines in a game: each command through `service.apply_command` (the path the
API's command post and the scheduler take), each in a transaction of its own, in the order
`engine.text.script.Script` plays them (a whole turn: an interruption's answer when the engine
asks for it, alternatives in order, the first line that cannot be played stops the rest). A plan
(server/plans/) is played by the same Script.

A reply to an earlier email (the game has moved on since) is played when all its lines still
apply to the game as it is now (tried first on a copy, with the game's own dice); otherwise
nothing of it is played and the answer tells what changed since.

Each command is stored with an idempotency key derived from the Message-ID, the step and its
line: a message handled again after a crash skips the steps it had applied (and a same message
delivered twice is already refused earlier, by its Message-ID).
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import select

import engine
from engine.text.script import Script, ScriptLine, described, dry_run
from server import i18n
from server.games import service
from server.i18n import N_
from server.inbound import table_words
from server.inbound.lines import Line
from server.inbound.table_words import is_table_word
from server.plans import store as plans
from server.storage.db import session_scope
from server.storage.models import Event, Game, IdempotencyRecord, Seat, User


@dataclass
class PlayReport:
    applied: list[Line] = field(default_factory=list)
    played: list[str] = field(default_factory=list)  # each command as the player reads it
    events: list[dict] = field(default_factory=list)  # the applied commands' event rows
    refused: Line | None = None
    # English: a message marked with N_ when it is ours, the engine's Refusal when a rule's
    reason: str | None = None
    reason_values: dict = field(default_factory=dict)  # the fields of `reason`

    def reason_in(self, language: str | None) -> str:
        """Why the run stopped, in `language` (English: as the mail log records it)."""
        if not self.reason:
            return ""
        if isinstance(self.reason, engine.Refusal):
            return i18n.refusal(self.reason, language)
        values = {key: i18n.refusal(value, language) if isinstance(value, engine.Refusal)
                  else value for key, value in self.reason_values.items()}
        return i18n.translate(language, self.reason, **values)
    not_run: list[Line] = field(default_factory=list)
    unused: list[Line] = field(default_factory=list)  # interruption answers never asked for
    words: list[str] = field(default_factory=list)  # the mail words met (show, help, ...)
    explained: list[str] = field(default_factory=list)  # what `explain NAME` asked about
    notes: list[str] = field(default_factory=list)  # what the table words did (table_words)
    changed: list[dict] = field(default_factory=list)  # events since a stale email (payloads)
    caught_up: bool = False  # a stale reply whose lines all still applied
    version: int | None = None  # the game's version after the run


def line_key(message_key: str, line: Line, step: int | None = None) -> str:
    where = f"{line.number}" if step is None else f"{line.number}\n{step}"
    digest = hashlib.sha256(f"{message_key}\n{where}\n{line.text}".encode()).hexdigest()
    return f"mail:{digest[:40]}"


def script_of(lines: list[Line], seat: int, names) -> Script:
    """The lines to play as a Script: a line that is no command stops the run when reached."""
    return Script([ScriptLine(line.number, line.text,
                              None if line.kind == "command" else
                              (line.error or N_("this is not a command")))
                   for line in lines], seat, names)


def run_lines(db, user_id: int, game_id: str, seat: int, expected: int, message_key: str,
              lines: list[Line], now: datetime, names=None,
              language: str | None = None) -> PlayReport:
    """Play the lines in turn; the report, its notes in `language`."""
    report = PlayReport(version=expected)
    to_play = []
    for line in lines:
        if line.kind != "word":
            to_play.append(line)
            continue
        report.words.append(line.word or "")
        if line.word == "explain":
            report.explained.append(line.argument)
        elif line.word == "plan clear":
            report.notes.append(_clear_plan(db, game_id, seat, language))
        elif line.word in ("stop", "unsubscribe"):
            _stop(db, user_id, game_id, everything=line.word == "unsubscribe")
        elif is_table_word(line.word or ""):
            report.notes.append(table_words.act(db, user_id, game_id, line.word, now, language))
    if not to_play:
        return report
    by_number = {line.number: line for line in to_play}
    script = script_of(to_play, seat, names)
    step_number = 0
    while True:
        with session_scope(db) as session:
            reason = _game_refusal(session.get(Game, game_id))
            if reason is not None:
                report.refused, report.reason = to_play[0], reason
                report.reason_values = {"game": game_id}
                break
            game = session.get(Game, game_id)
            if step_number == 0 and game.version != report.version and not _handled(
                    session, user_id, message_key, to_play, script, game, report.version):
                if not _still_applies(session, game, script, report):
                    break
            state = service.load_state(session, game, report.version)
            step = script.next(state)
            if step is None:
                break
            line = by_number[step.line.number]
            if step.command is None:
                report.refused, report.reason = line, step.reason
                break
            key = line_key(message_key, line, step_number)
            step_number += 1
            done = session.get(IdempotencyRecord, (user_id, key))
            if done is not None:  # applied when this message was first handled
                _note_played(report, script, step, line, names)
                report.version = done.response.get("version", report.version)
                continue
            if game.version != report.version:
                report.refused, report.reason = line, LANDED_FIRST
                break
            try:
                applied = service.apply_command(session, game, step.command, f"user:{user_id}",
                                                now, state_before=state)
            except engine.RuleError as error:
                report.refused, report.reason = line, error.refusal
                break
            except service.StaleVersion:
                report.refused, report.reason = line, LANDED_FIRST
                break
            session.add(IdempotencyRecord(user_id=user_id, key=key, request_hash=key[5:],
                                          status_code=201, response={"version": game.version},
                                          created_at=now))
            try:
                session.flush()
            except IntegrityError:  # the same line of the same message, handled at the same time
                session.rollback()
                report.refused, report.reason = line, N_("this message is being handled already")
                break
            _note_played(report, script, step, line, names)
            report.events.extend(applied.rows)
            report.version = game.version
    if report.refused is not None and report.refused.number in by_number:
        stopped = script.stop.index if script.stop else None
        report.not_run = [by_number[sl.number] for index, sl in enumerate(script.lines)
                          if index not in script.used and index != stopped
                          and sl.number != report.refused.number]
    else:
        report.unused = [by_number[sl.number] for sl in script.unused_answers()]
        report.not_run = [by_number[sl.number] for sl in script.not_run()
                          if by_number[sl.number] not in report.unused]
    return report


def _note_played(report: PlayReport, script: Script, step, line: Line, names) -> None:
    script.played(step)
    if line not in report.applied:
        report.applied.append(line)
    report.played.append(described(step, names))


LANDED_FIRST = N_("another command landed first: look at the board below and send it again")


def _game_refusal(game: Game | None) -> str | None:
    if game is None or game.status == "open":
        return N_("game {game} has not started yet")
    if game.status == "finished":
        return N_("game {game} is over")
    return None


def _handled(session, user_id: int, message_key: str, lines: list[Line], script: Script,
             game: Game, version: int) -> bool:
    """Was this message's first step applied already (the message handled again)?"""
    state = service.load_state(session, game, version)
    step = copy.deepcopy(script).next(state)
    if step is None or step.command is None:
        return False
    line = next(line for line in lines if line.number == step.line.number)
    return session.get(IdempotencyRecord, (user_id, line_key(message_key, line, 0))) is not None


def _still_applies(session, game: Game, script: Script, report: PlayReport) -> bool:
    """A reply to an earlier email: play it from now when every line still applies; otherwise
    refuse it all, with what happened since (as the player may know it: answer.py narrates)."""
    trial = dry_run(service.load_state(session, game), copy.deepcopy(script), game.seed,
                    game.version)
    report.changed = [row for (row,) in session.execute(
        select(Event.payload).where(Event.game_id == game.id, Event.seq > report.version)
        .order_by(Event.seq))]
    if trial.complete() and trial.steps:
        report.caught_up, report.version = True, game.version
        return True
    first = trial.stop.line if trial.stop else script.lines[0]
    report.refused = Line(first.number, first.text, "command")
    report.reason = N_(
        "the game has moved on since the email you replied to, and your lines no longer all "
        "apply{why}: nothing was played. What changed since is told below; look at the board "
        "and send your commands again, replying to this email")
    # The refusal in parentheses, in the reader's words (a wrapper with no word to translate).
    report.reason_values = {"why": engine.Refusal(" ({reason})", reason=trial.stop.reason)
                            if trial.stop else ""}
    return False


def _clear_plan(db, game_id: str, seat: int, language: str | None = None) -> str:
    with session_scope(db) as session:
        had = plans.clear(session, game_id, seat)
    return i18n.gettext(language, N_("Your plan is dropped.") if had
                        else N_("You had no plan in this game."))


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
