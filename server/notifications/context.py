"""What an email says: the template context for one notice, read from the game's log and its
state at the notice's version (the sender renders it later; the game has moved on since).

Keys: game_id, game_url, name, seat, your_turn, decision_kind, deadline, happened (narrated
lines, engine/text/narrate.py), board (the view as `iridescia show --no-color` draws it,
engine/text/board.py), typed (the notation lines the recipient may send now) and typed_more (how
many more there are), scores (name, total, rank), score_lines (each seat's breakdown), played,
reason, commands (show, legal, play: a CLI example), own_cards (the texts of the recipient's
objectives and items), messages and messages_earlier (the table talk since their last turn).
"""

import textwrap
from datetime import datetime

from flask import current_app, has_app_context
from sqlmodel import select

import engine
from engine.text import notation
from engine.text.board import render_plain
from engine.text.narrate import narrate, score_lines
from engine.text.wording import item_text, objective_text
from server import i18n
from server.config import Settings
from server.games.seat_kinds import stand_in
from server.games.table import table_of
from server.i18n.stored import restored
from server.messages.service import since_last_turn, told_line
from server.notifications.board_text import board_sides, picture_words
from server.notifications.headline import news
from server.notifications.render import commands
from server.notifications.table_notes import table_notes
from server.picture.cache import board_picture as cached_picture
from server.picture.png import data_uri
from server.picture.raster import board_png
from server.storage.models import Command, Event, Game, Seat, User, utcnow
from server.users.sign_in import magic_link

# "Since your last turn" tells at most this many events (a round of four players is ~150).
HAPPENED_EVENTS = 400
# The lines of what one may type, in full up to this many (a Cauldron of Fortune alone can
# offer 64); beyond, the mail says how many more `legal` lists.
TYPED_LINES = 60
TURN_KINDS = {"game_started", "your_turn", "reminder", "deadline_warning"}


def base_url() -> str:
    if has_app_context():
        return current_app.config.get("BASE_URL", "").rstrip("/")

    return Settings.load().BASE_URL.rstrip("/")


def format_time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.strftime("%Y-%m-%d %H:%M UTC")


def _per_version(session, game: Game, version: int, what: str, compute):
    """`compute()` once per game version and transaction: the emails of one version (every
    player's game_over, a "played for you" and the next player's turn) share what they read.
    Kept in the session's `info` with the transaction it belongs to."""
    transaction = session.get_transaction()
    cache = session.info.get("iridescia.email_context")
    if cache is None or cache[0] is not transaction:  # a new transaction starts afresh
        cache = session.info["iridescia.email_context"] = (transaction, {})
    key = (what, game.id, version)
    if key not in cache[1]:
        cache[1][key] = compute()
    return cache[1][key]


def seat_names(session, game: Game, version: int) -> dict[int, str]:
    return _per_version(session, game, version, "names", lambda: _seat_names(session, game))


def seat_links(session, game: Game, version: int) -> dict[int, str]:
    """Each human seat's "Open the game": a magic link that signs its player in on the game's
    page (server/users/sign_in.py)."""
    return _per_version(session, game, version, "links",
                        lambda: _seat_links(session, game, version))


def _seat_links(session, game: Game, version: int) -> dict[int, str]:
    """Issued when the game reached `version` (its last event's time): the same links however
    often the email is rendered."""

    issued_at = session.exec(
        select(Event.at).where(Event.game_id == game.id, Event.seq == version)
    ).first()
    rows = session.exec(
        select(Seat.seat, User.id, User.token_hash)
        .join(User, Seat.user_id == User.id)
        .where(Seat.game_id == game.id, Seat.seat.is_not(None))
    ).all()
    return {seat: magic_link(user_id, token_hash, f"/games/{game.id}", issued_at)
            for seat, user_id, token_hash in rows}


# The emails that carry the board as a picture (the text part keeps the text board).
PICTURED = frozenset({"game_started", "your_turn", "game_over"})


def board_picture(state, names: dict[int, str], game_id: str, version: int) -> str:
    """The hex board at `version` as a data URI (made an inline part when the mail is built):
    the public board, drawn once per game version for every mail and `board.png`."""
    return data_uri(cached_picture(game_id, version,
                                   lambda: board_png(engine.view(state, None), names)))


def _seat_names(session, game: Game) -> dict[int, str]:
    rows = session.exec(
        select(Seat, User)
        .join(User, Seat.user_id == User.id, isouter=True)
        .where(Seat.game_id == game.id)
    ).all()
    return {
        seat.seat: (seat.name or "a bot") if seat.kind == "bot" else
        ("the Rhom" if seat.kind == "rhom" or user is None else user.name)
        for seat, user in rows
        if seat.seat is not None
    }


def happened_since_last_turn(
    session, game: Game, version: int, seat: int, names: dict[int, str],
    language: str | None = None,
) -> list[str]:
    """What happened after the player's own last command, up to and including `version`, told
    as they may know it (engine/text/narrate.py): turn headings, then indented sentences."""
    lines: list[str] = []
    # Within 80 columns once the template indents them; a Japanese character takes two.
    wide = i18n.normal(language) == "ja"
    for story in narrate(events_since_last_turn(session, game, version, seat), names, seat,
                         translations=i18n.engine_catalog(language)):
        lines.append(story.heading)
        for sentence in story.sentences:
            lines += textwrap.wrap(sentence, 38 if wide else 76, initial_indent="  ",
                                   subsequent_indent="    ", break_long_words=wide,
                                   break_on_hyphens=False)
    return lines


def events_since_last_turn(session, game: Game, version: int, seat: int) -> list[dict]:
    """The event payloads after the player's own last command, up to `version` (the last
    HAPPENED_EVENTS of them), oldest first."""

    commands_before = _per_version(
        session,
        game,
        version,
        "commands",
        lambda: session.exec(
            select(Command.version, Command.command)
            .where(Command.game_id == game.id, Command.version < version)
            .order_by(Command.version)
        ).all(),
    )
    start = None  # the version after which the others' commands began
    for applied_at, command in commands_before:
        if command.get("seat") == seat:
            start = None
        elif start is None:
            start = applied_at
    if start is None:
        return []
    rows = _per_version(session, game, version, f"events-after-{start}", lambda: session.exec(
        select(Event.payload)
        .where(Event.game_id == game.id, Event.seq > start, Event.seq <= version)
        .order_by(Event.seq.desc())
        .limit(HAPPENED_EVENTS)
    ).all())
    return list(reversed(rows))


def own_cards(view: dict, seat: int, language: str | None = None) -> list[str]:
    """The texts of the recipient's own objectives and items (engine/text/card_text.py): the text part
    has them in its board; the HTML part, whose board is a picture, lists them."""

    me = next((p for p in view.get("players") or [] if p["seat"] == seat), None)
    if me is None:
        return []
    version = view.get("rules_version")
    cards = i18n.engine_catalog(language)
    _ = i18n.catalog(language).gettext
    return ([_("Objective: {text}").format(text=objective_text(o, version, cards))
             for o in me.get("objectives") or []]
            + [_("Item: {text}").format(text=item_text(i, version, cards))
               for i in me.get("items") or []])


def table_talk(session, game: Game, user_id: int | None, seat: int, version: int) -> dict:
    """"Messages since your last turn": what the others said on both channels since the
    recipient's last command (server/messages), wrapped for the text part; the HTML part
    escapes the same lines. `messages_earlier` counts those left out (the page has them)."""

    if user_id is None:
        return {"messages": [], "messages_earlier": 0}
    told, earlier = since_last_turn(session, game, user_id, seat, version)
    lines = [textwrap.fill(told_line(message), 76, subsequent_indent="    ",
                           break_long_words=True, break_on_hyphens=False) for message in told]
    return {"messages": lines, "messages_earlier": earlier}


def typed_lines(state, seat: int, names: dict[int, str] | None = None) -> list[str]:
    """The notation lines (engine/text/notation.py) `seat` may send now, each once; other
    players by name when `names` are given (`give amethyst --to Ben`)."""

    lines = (notation.format(c, names) for c in engine.legal_commands(state, seat)
             if notation.has_notation(c))
    return list(dict.fromkeys(lines))


def board_for(view: dict, game: Game, names: dict[int, str],
              language: str | None = None) -> str:
    """The board as `iridescia show --no-color` draws it (one renderer for both)."""

    players = [{"seat": seat, "name": name} for seat, name in names.items()]
    return render_plain(view, {"id": game.id, "players": players},
                        i18n.engine_catalog(language))


def _scores(state, names: dict[int, str]) -> list[dict]:

    seats = engine.outcome(state).to_dict()["seats"]
    return sorted(
        (
            {
                "name": names.get(s["seat"], f"seat {s['seat']}"),
                "total": s["total"],
                "rank": s["rank"],
            }
            for s in seats
        ),
        key=lambda s: (s["rank"], s["name"]),
    )


def _score_lines(state, names: dict[int, str], language: str | None = None) -> list[str]:

    return score_lines(engine.outcome(state).to_dict(), names, i18n.engine_catalog(language))


def build_context(
    session,
    game: Game,
    version: int,
    state,
    kind: str,
    seat: int,
    name: str,
    extra: dict | None = None,
    user_id: int | None = None,
    queued_at: datetime | None = None,
    reader: dict | None = None,
) -> dict:
    """The context of the `kind` notice to the player `name` at `seat`, about the game as it was
    at `version` (`state` is the engine state there). `extra` holds what was known only when the
    notice was queued: the deadline it quotes, the reason and commands of a turn played for them.
    `reader` holds the recipient's language, time_zone, tile_sort and relic_sort (docs/i18n.md)."""

    extra = dict(extra or {})
    reader = reader or {}
    language = reader.get("language")
    deadline = i18n.deadline(extra.pop("deadline", None), language, reader.get("time_zone"))
    left = i18n.time_left(extra.pop("time_left", None), language)
    if extra.get("plan_stopped"):  # kept as JSON; a row written before holds its English
        extra["plan_stopped"] = i18n.say(restored(extra["plan_stopped"]), language)
    names = seat_names(session, game, version)
    over = engine.is_terminal(state)
    decision_kind = None if over else engine.pending_kind(state)
    your_turn = not over and kind in TURN_KINDS and engine.current_player(state) == seat
    view = engine.view(state, seat, tile_sort=reader.get("tile_sort"),
                       relic_sort=reader.get("relic_sort"))
    typed = typed_lines(state, seat, names) if your_turn else []
    return {
        "game_id": game.id,
        "game_url": seat_links(session, game, version).get(seat)
        or f"{base_url()}/games/{game.id}",
        "board_image": board_picture(state, names, game.id, version)
        if kind in PICTURED else None,
        "board_alt": picture_words(view, names, language),
        "sides": board_sides(view, names, language),
        "name": name,
        "seat": seat,
        "your_turn": your_turn,
        "decision_kind": decision_kind,
        "deadline": deadline if your_turn else None,
        "time_left": left if your_turn else None,
        "stand_in": _stand_in_of(session, game, seat) if your_turn and deadline else None,
        "happened": happened_since_last_turn(session, game, version, seat, names, language),
        "headline": news(events_since_last_turn(session, game, version, seat), names, seat,
                         language),
        "turn_number": (view.get("turn") or {}).get("number"),
        "table_notes": table_notes(session, game, seat, queued_at or utcnow()),
        "board": board_for(view, game, names, language),
        "own_cards": own_cards(view, seat, language),
        **table_talk(session, game, user_id, seat, version),
        "typed": typed[:TYPED_LINES],
        "typed_more": max(0, len(typed) - TYPED_LINES),
        "scores": _scores(state, names) if over else [],
        "score_lines": _score_lines(state, names, language) if over else [],
        "played": [],
        "reason": "",
        # The CLI's example keeps seat numbers (its commands take no names).
        "commands": commands(game.id, (typed_lines(state, seat) or [None])[0] if typed else None),
        **extra,
    }


def _stand_in_of(session, game: Game, seat: int) -> str | None:
    """The bot level that plays `seat`'s turn if its deadline passes (a human's only)."""
    row = next((s for s in table_of(session, game)[0] if s.seat == seat), None)
    return stand_in(row.stand_in) if row is not None and row.kind == "human" else None
