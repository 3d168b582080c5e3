"""A mail of a few paragraphs (the account mails, the invitation, the sign-in link) as its text
and HTML parts, in the reader's language: the same words twice, the HTML escaped, each link or
command on a line of its own (indented in the text, a link or code in the HTML)."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from markupsafe import escape

from server.i18n import normal


def _wrapped(paragraph: str, language: str | None) -> str:
    if normal(language) != "en":
        return paragraph
    return "\n".join(textwrap.fill(line, 76, break_long_words=False, break_on_hyphens=False)
                     for line in paragraph.split("\n"))


@dataclass(frozen=True)
class Line:
    """A link or a command, shown on its own line."""

    text: str


def bodies(language: str | None, title: str, parts: list[str | Line]) -> tuple[str, str]:
    """(text, HTML) of `parts`: paragraphs (str) and lines of their own (Line). English
    paragraphs are wrapped at 76 columns (Japanese, which has no spaces to wrap at, is not)."""
    text = "\n\n".join(f"    {part.text}" if isinstance(part, Line) else _wrapped(part, language)
                       for part in parts) + "\n"
    html = [f'<!DOCTYPE html>\n<html lang="{normal(language)}">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(title)}</title>\n</head>\n"
            '<body style="margin: 0; padding: 0; background: #f4f2ec">\n'
            '<div style="max-width: 600px; margin: 0 auto; padding: 12px; background: #fff; '
            'font-family: sans-serif; font-size: 15px; line-height: 1.4; color: #222; '
            'overflow-wrap: anywhere">']
    for part in parts:
        if isinstance(part, Line) and part.text.startswith(("https://", "http://")):
            html.append(f'<p><a href="{escape(part.text)}">{escape(part.text)}</a></p>')
        elif isinstance(part, Line):
            html.append(f"<p><code>{escape(part.text)}</code></p>")
        else:
            html.append("<p>" + "<br>\n".join(escape(line) for line in part.split("\n"))
                        + "</p>")
    html.append("</div>\n</body>\n</html>\n")
    return text, "\n".join(html)
