"""The community's mail words: `rematch`, in reply to a game's mail (the game-over mail above
all), asks for a rematch of the finished game or accepts the one another player asked for
(server/games/rematch.py); `open` to the bare address lists the public games waiting for
players (each person with their rating on the game's track), and `join CODE` there takes a seat
in one."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import select
from werkzeug.exceptions import HTTPException

from server import i18n
from server.games import lobby, rematch
from server.i18n import N_
from server.inbound import answer
from server.inbound.record import Outcome, finish
from server.mail import reply_addresses
from server.ratings import derived
from server.seeking import open_games
from server.storage.db import session_scope
from server.storage.models import Game, Seat, User


def wants_rematch(lines: list) -> bool:
    return any(line.kind == "word" and line.word == "rematch" for line in lines)


def answer_rematch(app, db, record_id: int, letter, user: User, game_id: str,
                   now: datetime) -> Outcome:
    """Ask or accept; the answer says which game it is and whom it waits for, or why not."""
    language = answer.language_of(user, letter)
    with session_scope(db) as session:
        game = session.get(Game, game_id)
        seat = session.exec(select(Seat).where(Seat.game_id == game_id,
                                               Seat.user_id == user.id)).first()
        try:
            new, made = rematch.ask(session, game, seat, session.get(User, user.id), now,
                                    app.config["BASE_URL"])
        except HTTPException as error:
            session.rollback()
            reason = (getattr(error, "data", None) or {}).get("message") or str(error)
            status, detail = "refused", reason
            intro = answer.not_acted_on(language, reason)
            new = None
        else:
            status, detail = "answered", f"rematch {new.id} of game {game_id}"
            intro = _told(session, game_id, new, made, language)
        finish(session, record_id, status, detail, user_id=user.id,
               game_id=new.id if new is not None else game_id)
        answer.queue_answer(session, letter, user.email,
                            answer.subject_for(letter, N_("Rematch of {game}"), language,
                                               game=game_id),
                            answer.render_answer(language, name=user.name, intro=intro), now,
                            user_id=user.id, game_id=new.id if new is not None else None,
                            language=language)
    return Outcome(status, detail, True)


def _told(session, old_id: str, new: Game, made: bool, language: str | None = None) -> str:
    if new.status == "active":
        return i18n.translate(language, N_("Game {game}, the rematch of game {old}, has started: "
                                           "its first email is on its way."),
                              game=new.id, old=old_id)
    seated = session.exec(select(Seat).where(Seat.game_id == new.id,
                                             Seat.kind.in_(("human", "bot")))).all()  # type: ignore[attr-defined]
    waiting = new.seats - len(seated)
    asked = (N_("You asked for a rematch of game {old}: game {game}.") if made
             else N_("You accepted the rematch of game {old}: game {game}."))
    return i18n.translate(language, asked, old=old_id, game=new.id) + " " + i18n.translate(
        language, N_("The other players are invited; it starts by itself when the {waiting} "
                     "still missing have accepted (by replying `rematch` to the game's last "
                     "email, or `join` to the invitation)."), waiting=waiting)


def wants_open_games(texts: list[str]) -> bool:
    """`open`, alone on a line, to the bare address: the open games, please."""
    return any(text.split("#", 1)[0].strip().lower().strip(" .!") == "open" for text in texts)


OPEN_GAMES_LISTED = 20


def answer_open_games(app, db, record_id: int, letter, user_id: int, now: datetime) -> Outcome:
    """The newest open public games, each with the line that joins it by mail."""
    base = reply_addresses.ReplyBase.parse(app.config["REPLY_ADDRESS"])
    with session_scope(db) as session:
        user = session.get(User, user_id)
        language = answer.language_of(user, letter)
        games, total = open_games.open_games(session, 0, OPEN_GAMES_LISTED)
        listed = derived.with_ratings(derived.ratings(session),
                                      lobby.games_json(session, games, user))
        codes = {game.id: game.join_code for game in games}
        lines = []
        for game in listed:
            players = ", ".join(
                f"{p['name']} ({p['rating']}{'?' if p['rating_provisional'] else ''})"
                if "rating" in p else p["name"] for p in game["players"] if p["kind"] != "rhom")
            lines.append("  " + i18n.translate(
                language, N_("{game}: {taken} of {seats} seats taken by {players}, pace {pace}: "
                             "write `join {code}` to {address}"), game=game["id"],
                taken=len(game["players"]), seats=game["seats"], players=players,
                pace=game["pace"], code=codes[game["id"]], address=base.bare))
        if lines:
            intro = (i18n.translate(language, N_(
                "Public games waiting for players (the {count} newest of {total}):"),
                count=len(lines), total=total) + "\n" + "\n".join(lines) + "\n\n"
                + i18n.gettext(language, N_("Add a word of your own after the code for the dice "
                                            "if you like (`join CODE tolami-veruko`).")))
        else:
            intro = i18n.gettext(language, N_(
                "No public game waits for players now. Seek one from the web page /open, or with "
                "`iridescia seek --seats 2`."))
        finish(session, record_id, "answered", f"listed {len(lines)} open game(s)",
               user_id=user.id)
        answer.queue_answer(session, letter, user.email,
                            answer.subject_for(letter, N_("open games"), language),
                            answer.render_answer(language, name=user.name, intro=intro), now,
                            user_id=user.id, language=language)
    return Outcome("answered", f"listed {len(lines)} open game(s)", True)


def answer_join_code(app, db, record_id: int, letter, user_id: int, rest: str,
                     now: datetime) -> Outcome:
    """`join CODE [WORD]` to the bare address: a seat in the game of that code."""
    code, _, word = rest.partition(" ")
    with session_scope(db) as session:
        user = session.get(User, user_id)
        language = answer.language_of(user, letter)
        try:
            game = lobby.join(session, user, code, now, contribution=word.strip() or None)
        except HTTPException as error:
            session.rollback()
            reason = (getattr(error, "data", None) or {}).get("message") or str(error)
            finish(session, record_id, "refused", reason, user_id=user.id)
            answer.queue_answer(session, letter, user.email,
                                answer.subject_for(letter, N_("join"), language),
                                answer.render_answer(language, name=user.name,
                                                     intro=answer.not_acted_on(language, reason)),
                                now, user_id=user.id, language=language)
            return Outcome("refused", reason, True)
        started = i18n.gettext(language, N_("It has started: its first email is on its way.")
                               if game.status == "active" else
                               N_("When the game starts you will get an email with the board."))
        finish(session, record_id, "joined", f"seated in game {game.id}", user_id=user.id,
               game_id=game.id)
        seated = i18n.translate(language, N_("You have a seat in game {game}."), game=game.id)
        answer.queue_answer(session, letter, user.email,
                            answer.subject_for(letter, N_("join"), language),
                            answer.render_answer(language, name=user.name,
                                                 intro=f"{seated} {started}"), now,
                            user_id=user.id, game_id=game.id, version=game.version,
                            language=language)
    return Outcome("joined", f"seated in game {game.id}", True)
