"""The answer to a player's mail: what was applied, the line refused and why, the lines not run,
the board as they may see it and what they may type now; queued in the outbox like any mail,
with its words written at once (its Reply-To, computed when it is sent, answers the new version).
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from datetime import datetime

from jinja2 import Environment, FileSystemLoader, StrictUndefined

import engine
from engine.text import card_help, notation
from engine.text.narrate import narrate_lines
from server import i18n
from server.games import service
from server.i18n import N_
from server.inbound.letter import Letter
from server.inbound.table_words import HELP as TABLE_HELP
from server.notifications.context import _score_lines, board_for, seat_names, typed_lines
from server.notifications.render import TEMPLATES, answer_html, words
from server.storage.models import Game, Outbox
from server.users.sign_in import magic_link

_environment = Environment(loader=FileSystemLoader(TEMPLATES), undefined=StrictUndefined,
                           trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)

HELP = N_("""The words you can send, one per line (a # starts a comment):
    reveal HEX [HEX], move HEX, mine, keep, end ...   a game command, as listed below
    show      the board (every answer shows it anyway)
    legal     what you may type now
    board     the board, as `show`
    explain NAME   what a card does (an item, objective, relic or tile)
    plan clear     drop your plan (commands sent when it is not your turn are
                   kept as your plan, played when your turn comes)
    say TEXT  a message to the other players (shown in their next email)
    help      this list
    stop      no more email about this game
    unsubscribe   no more email at all
{table_words}
Japanese verbs work too, the rest of the line the same:
    {synonyms}
To the bare address (no +code): `new solo` starts a game against the Rhom; anything else
lists your games with the address to reply to for each.""")


def help_text(language: str | None = None) -> str:
    """The answer to `help`, in the reader's language."""
    return i18n.gettext(language, HELP).replace(
        "{table_words}", i18n.gettext(language, TABLE_HELP)).replace(
        "{synonyms}", ", ".join(f"{ja} {en}" for ja, en in notation.SYNONYMS.items()))


def _quoted(line, language: str | None = None) -> str:
    return i18n.translate(language, N_('line {number}, "{text}"'), number=line.number,
                          text=line.text)


def language_of(user, letter: Letter | None = None) -> str:  # noqa: ANN001
    """An answer's language: the one the player chose, else what their mail's Content-Language
    or Accept-Language asks for, else English (docs/i18n.md)."""
    chosen = i18n.language_of(user)
    return i18n.normal(chosen or (letter.language if letter is not None else None))


def not_acted_on(language: str | None, why: str, **values) -> str:
    """The intro of an answer that did nothing: why, in the reader's language (`why` is a
    message marked with N_, or a sentence from elsewhere, which stays as it is)."""
    return i18n.translate(language, N_("Your mail was not acted on: {reason}."),
                          reason=i18n.translate(language, why, **values))


def game_context(session, game: Game, seat: int, name: str, reader: dict | None = None) -> dict:
    """The board (as `iridescia show --no-color` draws it), scores and what the player may type,
    at the game's version: the renderers of the game's own emails (server.notifications).
    `reader`: the player's language, tile_sort and relic_sort (docs/i18n.md)."""

    reader = reader or {}
    language = reader.get("language")
    state = service.load_state(session, game)
    if state is None:
        return {"board": "", "score_lines": [], "legal": [],
                "waiting": i18n.gettext(language, N_(
                    "Game {game} has not started yet: you will get an email when it does.")
                ).format(game=game.id)}
    view = engine.view(state, seat, tile_sort=reader.get("tile_sort"),
                       relic_sort=reader.get("relic_sort"))
    names = seat_names(session, game, game.version)
    over = engine.is_terminal(state)
    legal = [] if over else typed_lines(state, seat, names)
    waiting = ""
    if over:
        waiting = i18n.gettext(language, N_("Game {game} is over.")).format(game=game.id)
    elif not legal:
        to_act = engine.current_player(state)
        waiting = i18n.gettext(language, N_(
            "It is {name}'s turn now; you will get an email when it is yours.")).format(
            name=names.get(to_act, i18n.gettext(language, N_("someone else"))))
    return {"board": board_for(view, game, names, language),
            "score_lines": _score_lines(state, names, language) if over else [], "legal": legal,
            "waiting": waiting, "view": view, "names": names}


def html_with_picture(text: str, context: dict, game: Game, user,  # noqa: ANN001
                      language: str | None = None) -> str | None:
    """The answer's HTML part (server/notifications/render.py): its text and sign-in links to
    the game's page and to its board picture, no picture inline (the your-turn mail has it);
    None before the game has a board."""

    if context.get("view") is None:
        return None
    link = magic_link(user.id, user.token_hash, f"/games/{game.id}")
    picture = magic_link(user.id, user.token_hash, f"/games/{game.id}/board.png")
    language = language or getattr(user, "language", None)
    return answer_html(i18n.gettext(language, N_("Gems of Iridescia {game}")).format(game=game.id),
                       text, link, picture, context.get("board"), language)


def describe_events(session, game: Game, rows: list[dict], seat: int,
                    language: str | None = None) -> list[str]:
    """The applied commands' events told as the player may know them (engine/text/narrate.py),
    in their language."""

    names = seat_names(session, game, game.version)
    return narrate_lines([row["payload"] for row in rows], names, seat,
                         translations=i18n.engine_catalog(language))


def run_sections(session, game: Game, seat: int, report, planned,
                 language: str | None = None) -> dict:
    """What the run of the reply's lines adds to the answer: the interruption answers never
    asked for, what changed since a stale email (narrated as this seat may know it), the plan
    kept, the cards explained."""
    names = seat_names(session, game, game.version)
    explained = []
    for wanted in report.explained:
        try:
            cards = i18n.engine_catalog(language)
            explained += card_help.explain_lines(
                card_help.find(wanted, game.rules_version, cards), cards)
        except (card_help.UnknownCard, engine.UnsupportedRulesVersion) as error:
            why = i18n.refusal(error, language) if isinstance(error, engine.RuleError) else str(error)
            explained.append(f"explain {wanted}: {why.strip(chr(39) + chr(34))}")
        explained.append("")
    if "explain" in report.words and not report.explained:
        explained = [i18n.gettext(language, N_(
            "explain NAME tells what a card does: explain wishing well"))]
    return {
        "caught_up": report.caught_up,
        "unused": [line.text for line in report.unused],
        "changed": narrate_lines(report.changed, names, seat,
                                 translations=i18n.engine_catalog(language))
        if report.changed else [],
        "plan": planned if isinstance(planned, list) else [],
        "plan_refused": i18n.say(planned, language) if isinstance(planned, str) else "",
        "explained": [line for line in explained[:-1]] if explained and not explained[-1]
        else explained,
    }


def render_answer(language: str | None = None, **values) -> str:
    context = {"intro": "", "said": [], "skipped_before": [], "applied": [], "refused": "", "reason": "",
               "not_run": [], "skipped_after": [], "happened": [], "help": "", "board": "",
               "score_lines": [], "legal": [], "waiting": "", "name": "", "caught_up": False,
               "unused": [], "changed": [], "plan": [], "plan_refused": "", "explained": []}
    context.update(values)
    # Within 76 columns, like the game's emails (the intro may hold a list: keep its lines).
    context["intro"] = "\n".join(
        line if line.startswith(" ") else
        textwrap.fill(line, 76, break_long_words=False, break_on_hyphens=False)
        for line in context["intro"].splitlines())
    return _environment.get_template("answer.txt").render(dict(context, **words(language)))


_REPLY_PREFIXES = re.compile(r"^(\s*(re|aw|sv|fw|fwd)\s*:\s*)+", re.I)


def subject_for(letter: Letter, fallback: str, language: str | None = None, **values) -> str:
    """"Re: " and the subject replied to, without the prefixes a long exchange piles up;
    `fallback` (marked with N_, its fields `values`) in `language` when it had none."""
    subject = (_REPLY_PREFIXES.sub("", letter.subject).strip()
               or i18n.translate(language, fallback, **values))
    return f"Re: {subject}"


def queue_answer(session, letter: Letter, to: str, subject: str, text: str, now: datetime,
                 user_id: int | None = None, game_id: str | None = None,
                 version: int | None = None, seat: int | None = None,
                 html_body: str | None = None, language: str | None = None) -> None:
    """Queue the answer once per incoming message (its dedupe key is the message's); without
    an `html_body` its HTML part is its text in the mails' column, in `language`."""
    digest = hashlib.sha256(letter.message_key.encode()).hexdigest()[:40]
    key = f"answer:{digest}"
    if _queued(session, key):
        return
    if html_body is None:
        html_body = answer_html(subject, text, language=i18n.normal(language))
    session.add(Outbox(
        dedupe_key=key, game_id=game_id, user_id=user_id, to_email=to, kind="mail_answer",
        version=version, seat=seat,
        extra={"in_reply_to": letter.message_id,
               "references": " ".join([*letter.references, letter.message_id])}
        if letter.message_id else None,
        subject=subject[:200], text_body=text, html_body=html_body, status="pending",
        next_attempt_at=now, created_at=now,
    ))


def _queued(session, key: str) -> bool:
    from sqlmodel import select

    return session.exec(select(Outbox.id).where(Outbox.dedupe_key == key)).first() is not None
