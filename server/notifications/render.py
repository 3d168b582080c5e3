"""Emails from Jinja2 templates: a subject, a text part and an HTML part for one notice.

`render(kind, context)` is pure; `context` is a plain dict built by server.notifications.context
(see there for its keys).
"""

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from server.notifications.headline import subject_with_news

TEMPLATES = Path(__file__).resolve().parent / "templates" / "email"

_environment = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)

def commands(game_id: str, example_line: str | None) -> dict:
    """The CLI commands an email quotes; `play` is the notation line `example_line` typed as a
    CLI command (the game after its first word), when there is something to play."""
    play = None
    if example_line:
        word, _, rest = example_line.partition(" ")
        play = f"iridescia {word} {game_id}" + (f" {rest}" if rest else "")
    return {
        "show": f"iridescia show {game_id}",
        "legal": f"iridescia legal {game_id}",
        "play": play,
    }


def subject(kind: str, context: dict) -> str:
    """A subject that tells the news: what the others did that matters most since the
    recipient's last turn, then what the mail asks of them, then the game (a mail client
    threads by the headers, not by the subject)."""
    game_id = context["game_id"]
    headline = context.get("headline")
    number = context.get("turn_number")
    turn = f"your turn {number}" if number else "your turn"
    if kind == "game_started":
        what = "the game has started" + (f", {turn}" if context["your_turn"] else "")
        return subject_with_news(None, f"Gems of Iridescia: {what}", game_id)
    if kind == "your_turn":
        what = "your removal turn" if context["decision_kind"] == "removal" else turn
        return subject_with_news(headline, what, game_id)
    if kind == "reminder":
        return subject_with_news(None, f"Reminder: {turn} is waiting", game_id)
    if kind == "deadline_warning":
        return subject_with_news(None, f"{turn} will be played for you at "
                                       f"{context['deadline']}", game_id)
    if kind == "played_for_you":
        return subject_with_news(None, "your turn was played for you", game_id)
    if kind == "game_over":
        winners = " and ".join(s["name"] for s in context["scores"] if s["rank"] == 1)
        return subject_with_news(None, f"Game over: {winners or 'nobody'} won", game_id)
    raise ValueError(f"unknown notification kind {kind!r}")


def render(kind: str, context: dict) -> tuple[str, str, str]:
    """(subject, text body, HTML body)."""
    values = dict(context, kind=kind)
    text = _environment.get_template("notification.txt").render(values)
    html = _environment.get_template("notification.html").render(values)
    return subject(kind, context), text, html


def render_template(name: str, context: dict) -> str:
    """A template of its own (the daily digest) rendered with `context`."""
    return _environment.get_template(name).render(context)


def answer_html(subject: str, text: str, link: str | None = None,
                picture_link: str | None = None, board: str | None = None) -> str:
    """The HTML part of an answer to a reply by mail: its text, in the phone-wide column of the
    game's mails, with a link to the game's page. No picture inline, and the text board (`board`,
    when the text holds it) a link to the board's picture instead: an answer stays under 12 KB
    (the your-turn mail carries the picture; the text part keeps the board in full)."""
    before, after, cut = text, "", False
    if board and board in text:
        before, _, after = text.partition(board)
        cut = True
    return _environment.get_template("answer.html").render(
        subject=subject, before=before, after=after, board_cut=cut, link=link,
        picture_link=picture_link)
