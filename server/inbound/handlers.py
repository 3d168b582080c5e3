"""What a mail to each kind of address does, once `ingest` has let it through: a play address
runs its lines in the game, a join address seats the invited player, a preferences address
unsubscribes, and the bare address lists the sender's games or starts a solo game."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlmodel import select
from werkzeug.exceptions import HTTPException

from engine.text.wording import clean
from server import i18n
from server.api.games.schemas import GameCreateSchema
from server.games import lobby, seeding
from server.http.auth import hash_token, new_token
from server.i18n import N_
from server.inbound import answer, solo_code
from server.inbound.answer_subject import answer_subject
from server.inbound.community_words import (
    answer_join_code,
    answer_open_games,
    answer_rematch,
    wants_open_games,
    wants_rematch,
)
from server.inbound.games_list import list_games
from server.inbound.lines import join_word, read_lines, split_around_commands, split_said
from server.inbound.play import line_key, run_lines
from server.inbound.record import Outcome, close, finish
from server.mail import reply_addresses
from server.messages import service as messages
from server.plans import store as plans
from server.storage.db import session_scope
from server.storage.models import Game, Invitation, Seat, User, utcnow
from server.users import verification

log = logging.getLogger(__name__)


def _outcome(status: str, detail: str, answered: bool = True):

    return Outcome(status, detail, answered)


def refuse(db, record_id: int, letter, user_id: int | None, why: str, now: datetime,
           status: str = "refused", **values):
    """No action; an answer saying why, only to a registered sender (never to a forged one),
    in their language. `why`: a message marked with N_, its fields `values` (recorded in
    English)."""
    detail = why.format(**values) if values else why
    with session_scope(db) as session:
        finish(session, record_id, status, detail, user_id=user_id)
        user = session.get(User, user_id) if user_id is not None else None
        if user is not None:
            language = answer.language_of(user, letter)
            text = answer.render_answer(language, name=user.name,
                                        intro=answer.not_acted_on(language, why, **values))
            answer.queue_answer(session, letter, user.email,
                                answer.subject_for(letter, N_("your mail"), language), text, now,
                                user_id=user.id, language=language)
    return _outcome(status, detail, answered=user_id is not None)


def act(app, db, record_id: int, letter, token_text: str, user_id: int | None, now: datetime):
    secret = app.config["SECRET_KEY"]
    if token_text == "":
        return _bare(app, db, record_id, letter, user_id, now)
    try:
        token = reply_addresses.read(token_text)
    except reply_addresses.BadToken:
        return refuse(db, record_id, letter, user_id, N_(
            "the address you wrote to is not one this server gave out (was it changed?): reply "
            "to one of its emails"), now)
    if token.purpose == "join":
        return _join(app, db, record_id, letter, token, token_text, user_id, now)
    with session_scope(db) as session:
        user = session.get(User, user_id)
        owner = session.get(User, token.user_id)
        signed = owner is not None and reply_addresses.verify(secret, token_text, owner.token_hash)
    if not signed:
        return refuse(db, record_id, letter, user_id, N_(
            "the address you wrote to is not valid: it was changed, or its owner's API token "
            "was rotated since; reply to the newest email instead"), now)
    if owner.id != user.id:
        return refuse(db, record_id, letter, user_id, N_(
            "the address you wrote to belongs to another player, not to {sender}"), now,
            sender=letter.sender)
    if token.purpose == "prefs":
        return _unsubscribe(db, record_id, letter, user, now)
    return _play(app, db, record_id, letter, user, token, now)


def _seat_of(session, game_id: str, user_id: int) -> Seat | None:
    return session.exec(
        select(Seat).where(Seat.game_id == game_id, Seat.user_id == user_id)
    ).first()


def _post_said(app, db, game_id: str, user_id: int, message_key: str, said: list,
               now: datetime, language: str | None = None) -> list[str]:
    """Post each `say` line to the players' channel; the answer's line for each."""

    told = []
    for line in said:
        with session_scope(db) as session:
            game, user = session.get(Game, game_id), session.get(User, user_id)
            try:
                message = messages.post(session, game, user, True, line.said, now,
                                        messages.Limits.of(app.config),
                                        dedupe_key=line_key(message_key, line))
                told.append(i18n.translate(language, N_("Posted to the players: {text}"),
                                                  text=message.text))
            except messages.MessageRefused as error:
                session.rollback()
                told.append(i18n.translate(
                    language, N_('Not posted, line {number} "{text}": {reason}'),
                    number=line.number, text=clean(line.said)[:60],
                    reason=error.in_language(language)))
    return told


def _play(app, db, record_id, letter, user: User, token, now: datetime):
    with session_scope(db) as session:
        game = session.get(Game, token.game_id)
        seat = _seat_of(session, token.game_id, user.id) if game else None
        names = plans.seat_names(session, game.id) if seat is not None else {}
    if game is None or seat is None:
        return refuse(db, record_id, letter, user.id, N_("you do not play in game {game}"), now,
                      game=token.game_id)
    said, lines = split_said(read_lines(letter.lines, seat.seat, names))
    if wants_rematch(lines):
        return answer_rematch(app, db, record_id, letter, user, game.id, now)
    told = _post_said(app, db, game.id, user.id, letter.message_key, said, now,
                      answer.language_of(user, letter))
    before, to_run, after = split_around_commands(lines)
    commands = [line for line in to_run if line.kind != "word"]
    if commands and game.status == "active" and game.current_seat != seat.seat:
        # Not their turn: the commands are kept as their plan, played when the turn comes.
        words = [line for line in to_run if line.kind == "word"]
        report = run_lines(db, user.id, game.id, seat.seat, token.version, letter.message_key,
                           words, now, names, answer.language_of(user, letter))
        planned = _keep_plan(db, game.id, seat.seat, user.id, commands, now)
    else:
        planned = None
        report = run_lines(db, user.id, game.id, seat.seat, token.version, letter.message_key,
                           to_run, now, names, answer.language_of(user, letter))
    with session_scope(db) as session:
        game = session.get(Game, game.id)
        reader = _reader(session.get(User, user.id), letter)  # as the lines may have set it
        language = reader["language"]
        context = answer.game_context(session, game, seat.seat, user.name, reader) \
            if seat.seat is not None else {}
        intro = " ".join(report.notes) or _stopped_note(report.words, language) or (
            "" if to_run or said else i18n.gettext(language, N_(
                "Your mail had no command in it.")))
        run = answer.run_sections(session, game, seat.seat, report, planned, language)
        text = answer.render_answer(
            language,
            name=user.name,
            intro=intro,
            said=told,
            skipped_before=[line.text for line in before],
            applied=report.played,
            refused=answer._quoted(report.refused, language) if report.refused else "",
            reason=report.reason_in(language),
            not_run=[line.text for line in report.not_run],
            skipped_after=[line.text for line in after],
            happened=answer.describe_events(session, game, report.events, seat.seat, language)
            if report.events else [],
            help=answer.help_text(language) if "help" in report.words else "",
            **run,
            **context,
        )
        status = ("planned" if planned and not isinstance(planned, str)
                  else "stopped" if report.refused or isinstance(planned, str)
                  else "applied" if report.applied else "said" if said else "answered")
        english = report.reason_in(i18n.DEFAULT)
        detail = (f"line {report.refused.number} {report.refused.text!r}: {english}"
                  if report.refused else f"plan not kept: {planned}" if isinstance(planned, str)
                  else f"plan of {len(planned)} line(s) kept" if planned
                  else f"{len(report.played)} command(s) applied")
        if said:
            posted = i18n.translate(language, N_("Posted to the players: {text}"), text="")
            detail += f"; {sum(t.startswith(posted) for t in told)} of {len(said)} message(s) posted"
        finish(session, record_id, status, detail, user_id=user.id, game_id=game.id,
               applied=report.played)
        subject = answer_subject(game.id, report, planned, context, seat.seat, language)
        answer.queue_answer(
            session, letter, user.email, subject, text, now, user_id=user.id, game_id=game.id,
            version=game.version, seat=seat.seat,
            html_body=answer.html_with_picture(text, context, game, user, language),
            language=language)
    return _outcome(status, detail)


def _reader(user: User, letter=None) -> dict:  # noqa: ANN001
    """The player's language and display settings, which their answer follows."""
    return {"language": answer.language_of(user, letter), "tile_sort": user.tile_sort,
            "relic_sort": user.relic_sort}


def _keep_plan(db, game_id: str, seat: int, user_id: int, commands: list, now: datetime):
    """The lines kept as the seat's plan, or why they were not (a str)."""
    with session_scope(db) as session:
        game = session.get(Game, game_id)
        try:
            return plans.save(session, game, seat, user_id, [line.text for line in commands],
                              now, "mail").lines
        except plans.PlanRefused as error:
            session.rollback()
            return error.message


UNSUBSCRIBED = N_("You are unsubscribed: this server sends you no more email, except answers "
                  "to the mail you send it.")


def _stopped_note(words: list[str], language: str | None = None) -> str:
    if "unsubscribe" in words:
        return i18n.gettext(language, UNSUBSCRIBED)
    if "stop" in words:
        return i18n.gettext(language, N_(
            "You will get no more email about this game. Reply to this email to play on; an "
            "answer always comes."))
    return ""


def _unsubscribe(db, record_id, letter, user: User, now: datetime):
    with session_scope(db) as session:
        user = session.get(User, user.id)
        user.email_preference = "none"
        session.add(user)
        finish(session, record_id, "answered", "unsubscribed", user_id=user.id)
        language = answer.language_of(user, letter)
        answer.queue_answer(session, letter, user.email,
                            answer.subject_for(letter, N_("unsubscribe"), language),
                            answer.render_answer(language, name=user.name, intro=(
                                i18n.gettext(language, UNSUBSCRIBED))), now,
                            user_id=user.id, language=language)
    return _outcome("answered", "unsubscribed")


def _join(app, db, record_id, letter, token, token_text: str, user_id, now: datetime):
    with session_scope(db) as session:
        invitation = session.get(Invitation, token.invitation_id)
        valid = (invitation is not None and invitation.game_id == token.game_id
                 and reply_addresses.verify(app.config["SECRET_KEY"], token_text, invitation.email))
        invited = invitation.email if valid else None
    if not valid:
        if user_id is None:
            return _dropped(db, record_id, letter, "an invitation address that is not valid")
        return refuse(db, record_id, letter, user_id, N_(
            "the invitation address you wrote to is not valid: reply to the invitation email "
            "itself"), now)
    if letter.sender != invited:
        if user_id is None:
            return _dropped(db, record_id, letter, f"the invitation was for {invited}")
        return refuse(db, record_id, letter, user_id, N_(
            "this invitation was sent to another address, not to {sender}"), now,
            sender=letter.sender)
    with session_scope(db) as session:
        user = session.get(User, user_id) if user_id is not None else None
        if user is None:
            user = _new_account(session, letter)
        elif verification.claim_by_mail(user, now):
            # The invitation's signed address was mailed to this address only: it is theirs,
            # and whoever registered it unconfirmed loses the token (server/users).
            session.add(user)
        word = join_word(letter.lines)
        # A word that is no word is refused with the account kept (it proved the address).
        refused = seeding.contribution_problem(word)
        game = session.get(Game, token.game_id)
        if refused is None:
            try:
                lobby.join(session, user, game.join_code, now, contribution=word)
            except HTTPException as error:
                refused = (getattr(error, "data", None) or {}).get("message") or str(error)
                session.rollback()
            if refused is None:
                _seated(session, record_id, letter, user, game, now)
    if refused is not None:
        # Answered once this session is closed: on SQLite its open transaction would hold the
        # lock the refusal's own write waits for (issue 32, M5: 10 s, then a 451).
        return refuse(db, record_id, letter, _user_id_of(db, letter.sender), refused, now)
    return _outcome("joined", f"seated in game {token.game_id}")


def _user_id_of(db, email: str) -> int | None:
    with session_scope(db) as session:
        return session.exec(select(User.id).where(User.email == email)).first()


def _seated(session, record_id, letter, user: User, game: Game, now: datetime) -> None:
    finish(session, record_id, "joined", f"seated in game {game.id}", user_id=user.id,
           game_id=game.id)
    language = answer.language_of(user, letter)
    text = answer.render_answer(language, name=user.name, intro=i18n.translate(
        language, N_("You have a seat in game {game}. When the game starts you will get an email "
                     "with the board; play by replying to it, one command per line."),
        game=game.id))
    answer.queue_answer(session, letter, user.email, answer.subject_for(letter, N_("join"),
                                                                        language),
                        text, now, user_id=user.id, game_id=game.id, version=game.version,
                        language=language)


def _new_account(session, letter) -> User:
    """The invited address gets an account; its API token is random and shown to nobody (the
    player plays by mail; `iridescia register` cannot take the address, the CLI's token reset
    is a matter for the account pages)."""

    # The API's name rule (PlainString): no control or bidirectional-override characters, not
    # blank (issue 32, N2: a From name holding U+009B or U+202E made an account).
    name = clean(letter.sender_name).strip()[:80] or clean(letter.sender.partition("@")[0])[:80]
    user = User(name=name or "player", email=letter.sender, token_hash=hash_token(new_token()))
    if hasattr(User, "verified_at"):  # replying to the invitation proves the address is theirs
        user.verified_at = utcnow()
    session.add(user)
    session.flush()
    return user


def _dropped(db, record_id, letter, detail: str):

    log.warning("mail from %s dropped: %s", letter.sender, detail)
    return close(db, record_id, _outcome("dropped", detail, answered=False))


def _bare(app, db, record_id, letter, user_id: int, now: datetime):
    """To the bare address: `new solo` starts a solo game, `open` lists the open games, `join
    CODE` joins one; anything else lists the player's games."""

    codes = solo_code.asked(letter.lines)
    if codes:
        with session_scope(db) as session:
            token_hash = session.get(User, user_id).token_hash
        if letter.authenticated or solo_code.confirmed(codes, app.config["SECRET_KEY"], user_id,
                                                       token_hash):
            return _new_solo(db, record_id, letter, user_id, now)
        return list_games(app, db, record_id, letter, user_id, now, asked_solo=True)
    if wants_open_games(letter.lines):
        return answer_open_games(app, db, record_id, letter, user_id, now)
    code = join_word(letter.lines)
    if code:
        return answer_join_code(app, db, record_id, letter, user_id, code, now)
    return list_games(app, db, record_id, letter, user_id, now)


def _new_solo(db, record_id, letter, user_id: int, now: datetime):

    with session_scope(db) as session:
        user = session.get(User, user_id)
        game = lobby.create_game(session, user, GameCreateSchema().load({"seats": 1}), now)
        lobby.start_game(session, game, now, f"user:{user.id}")
        seat = _seat_of(session, game.id, user.id)
        reader = _reader(user, letter)
        language = reader["language"]
        context = answer.game_context(session, game, seat.seat, user.name, reader)
        text = answer.render_answer(language, name=user.name, intro=i18n.translate(
            language, N_("Your solo game {game} against the Rhom has started. Play by replying "
                         "to this email, one command per line."), game=game.id), **context)
        finish(session, record_id, "created", f"solo game {game.id}", user_id=user.id,
               game_id=game.id)
        answer.queue_answer(session, letter, user.email, i18n.translate(
            language, N_("Gems of Iridescia {game}: your solo game"), game=game.id), text, now,
            user_id=user.id, game_id=game.id, version=game.version, seat=seat.seat,
            html_body=answer.html_with_picture(text, context, game, user, language),
            language=language)
    return _outcome("created", f"solo game {game.id}")
