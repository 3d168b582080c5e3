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

    return {"_": text, "_h": html, "language": i18n.normal(language), "code": code}


def code(text: str) -> Markup:
    """`text` as code in an HTML part (escaped), to put in a message: _h("... {c}", c=code(x))."""
    return Markup("<code>{}</code>").format(text)


def subject(kind: str, context: dict, language: str | None = None) -> str:
    """A subject that tells the news: what the others did that matters most since the
    recipient's last turn, then what the mail asks of them, then the game (a mail client
    threads by the headers, not by the subject). In the recipient's language."""
    _ = words(language)["_"]
    game_id = context["game_id"]
    headline = context.get("headline")
    number = context.get("turn_number")
    turn = _("your turn {number}").format(number=number) if number else _("your turn")
    if kind == "game_started":
        if context["your_turn"]:
            what = _("Gems of Iridescia: the game has started, {turn}").format(turn=turn)
        else:
            what = _("Gems of Iridescia: the game has started")
        return subject_with_news(None, what, game_id)
    if kind == "your_turn":
        what = _("your removal turn") if context["decision_kind"] == "removal" else turn
        return subject_with_news(headline, what, game_id, language)
    if kind == "reminder":
        return subject_with_news(None, _("Reminder: {turn} is waiting").format(turn=turn),
                                 game_id)
    if kind == "deadline_warning":
        return subject_with_news(None, _("{turn} will be played for you at {deadline}").format(
            turn=turn, deadline=context["deadline"]), game_id)
    if kind == "played_for_you":
        return subject_with_news(None, _("your turn was played for you"), game_id)
    if kind == "game_over":
        winners = _(" and ").join(s["name"] for s in context["scores"] if s["rank"] == 1)
        if not winners:
            return subject_with_news(None, _("Game over: nobody won"), game_id)
        return subject_with_news(None, _("Game over: {winners} won").format(winners=winners),
                                 game_id)
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


def answer_html(subject: str, text: str, link: str | None = None,
                picture_link: str | None = None, board: str | None = None,
                language: str | None = None) -> str:
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
        picture_link=picture_link, **words(language))
