"""Emails from Jinja2 templates: a subject, a text part and an HTML part for one notice.

`render(kind, context, language)` is pure; `context` is a plain dict built by
server.notifications.context (see there for its keys). The templates write their words with
`_("...")` (text) and `_h("...", name=value)` (HTML: the message escaped, the values escaped
unless they are markup already), looked up in the recipient's language's catalog (server/i18n).
"""

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from server import i18n

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


def _(message: str) -> str:
    """Marks a message for the catalog; it is looked up when the template shows it."""
    return message


# The mail choices' words (server/users/mail_choices.DESCRIBED), shown in every game mail's
# footer: marked here so the catalog has them; the templates show `_(choice)`.
CHOICE_WORDS = (_("a mail every turn"), _("one digest a day"), _("reminders only"),
                _("no mail"))


def words(language: str | None) -> dict:
    """The templates' gettext for `language`: `_` for text, `_h` for HTML."""
    catalog = i18n.catalog(language)

    def text(message: str, **values) -> str:
        translated = catalog.gettext(message)
        return translated.format(**values) if values else translated

    def html(message: str, **values) -> Markup:
        return escape(catalog.gettext(message)).format(**values)

    return {"_": text, "_h": html, "language": i18n.normal(language)}


def subject(kind: str, context: dict, language: str | None = None) -> str:
    _ = words(language)["_"]
    game = _("Gems of Iridescia {game}").format(game=context["game_id"])
    if kind == "game_started":
        if context["your_turn"]:
            return _("{game}: the game has started, your turn").format(game=game)
        return _("{game}: the game has started").format(game=game)
    if kind == "your_turn":
        if context["decision_kind"] == "removal":
            return _("{game}: your removal turn").format(game=game)
        return _("{game}: your turn").format(game=game)
    if kind == "reminder":
        return _("Reminder: your turn in {game}").format(game=game)
    if kind == "deadline_warning":
        return _("{game}: your turn will be played for you at {deadline}").format(
            game=game, deadline=context["deadline"])
    if kind == "played_for_you":
        return _("{game}: your turn was played for you").format(game=game)
    if kind == "game_over":
        winners = _(" and ").join(s["name"] for s in context["scores"] if s["rank"] == 1)
        if not winners:
            return _("{game} is over: nobody won").format(game=game)
        return _("{game} is over: {winners} won").format(game=game, winners=winners)
    raise ValueError(f"unknown notification kind {kind!r}")


def render(kind: str, context: dict, language: str | None = None) -> tuple[str, str, str]:
    """(subject, text body, HTML body), in `language` (None: English)."""
    values = dict(context, kind=kind, **words(language))
    text = _environment.get_template("notification.txt").render(values)
    html = _environment.get_template("notification.html").render(values)
    return subject(kind, context, language), text, html


def render_template(name: str, context: dict, language: str | None = None) -> str:
    """A template of its own (the daily digest) rendered with `context`."""
    return _environment.get_template(name).render(dict(context, **words(language)))
