"""Emails from Jinja2 templates: a subject, a text part and an HTML part for one notice.

`render(kind, context)` is pure; `context` is a plain dict built by server.notifications.context
(see there for its keys).
"""

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

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
    game = f"Gems of Iridescia {context['game_id']}"
    if kind == "game_started":
        return f"{game}: the game has started" + (", your turn" if context["your_turn"] else "")
    if kind == "your_turn":
        what = "your removal turn" if context["decision_kind"] == "removal" else "your turn"
        return f"{game}: {what}"
    if kind == "reminder":
        return f"Reminder: your turn in {game}"
    if kind == "deadline_warning":
        return f"{game}: your turn will be played for you at {context['deadline']}"
    if kind == "played_for_you":
        return f"{game}: your turn was played for you"
    if kind == "game_over":
        winners = " and ".join(s["name"] for s in context["scores"] if s["rank"] == 1)
        return f"{game} is over: {winners or 'nobody'} won"
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
