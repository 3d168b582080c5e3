"""`--help` in the language of `LANG` (issue 30).

Click reads a command's help from its docstring and an option's from `help=` when the module is
imported, before the language is known (and CliRunner changes `LANG` between invocations of one
process). So the root group (`cli`, a `TranslatedGroup`) translates the whole command tree each
time it runs, before Click parses anything: every command's help and every option's help become
their catalog entries, looked up by the English text Click holds (kept aside as `english_help`).
The `Example:` lines are literal commands and stay as written; only the heading is translated.
`client/help_messages.py` extracts the same English texts for the catalog.

Click's own words in a help page ("Usage:", "Options", "Show this message and exit.", the
"[default: …]" note) come from Click's gettext, which the client does not install:
`HelpFormatter` puts ours in their place. It also wraps Japanese text by terminal columns (a
wide character takes two) and between any two characters, as Japanese has no spaces.
"""

from __future__ import annotations

import inspect
import re

import click

from client.i18n import N_, _, language
from engine.text.columns import columns

EXAMPLE = "\n\b\nExample:\n"
# Click's words in a help page, translated in our catalog (Click's gettext has no Japanese).
CLICK_WORDS = {
    "Usage:": N_("Usage:"), "Options": N_("Options"), "Commands": N_("Commands"),
    "Positional arguments": N_("Positional arguments"),
    "Show this message and exit.": N_("Show this message and exit."),
    "Show the version and exit.": N_("Show the version and exit."),
}
NOTES = {"[default: ": N_("[default: "), "[required]": N_("[required]")}
SHORT_HELP_COLUMNS = 50


def translate_tree(command: click.Command) -> None:
    """Give `command` and everything under it the help of the current language (the English
    one when that is the language)."""
    english = vars(command).setdefault("english_help", (command.help, command.short_help))
    command.help = translated(english[0])
    command.short_help = english[1]
    if language() != "en" and command.help != english[0]:
        command.short_help = short_help(command.help)
    command.context_class = HelpContext
    for param in command.params:
        param_english = vars(param).setdefault("english_help", getattr(param, "help", None))
        if param_english:
            param.help = _(param_english)
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            translate_tree(sub)


def translated(help_text: str | None) -> str | None:
    """A command's help in the current language; its example's lines as they are."""
    if not help_text:
        return help_text
    body, marker, example = inspect.cleandoc(help_text).partition(EXAMPLE)
    body, heading = _(body.rstrip()), _("Example:")
    return f"{body}\n\n\b\n{heading}\n{example}" if marker else body


def short_help(text: str) -> str:
    """The first sentence of a translated help, cut to fit the commands' list."""
    first = text.partition("\n\n")[0].replace("\n", "")
    sentence = re.match(r"[^。]*。?", first).group(0)
    if columns(sentence) <= SHORT_HELP_COLUMNS:
        return sentence
    while columns(sentence) > SHORT_HELP_COLUMNS - 1:
        sentence = sentence[:-1]
    return sentence + "…"


# A unit the wrapper keeps whole: a short note in brackets ("[既定：2]"), an ASCII word
# (`--seats`, `iridescia`; a number with its counter: 1人) or one other character, with what
# may not start a line (closing punctuation, small kana, ー) and the opening punctuation before
# it, which may not end one.
UNIT = re.compile(r"\s+|\[[^\]\n]{0,30}\][。、]?"
                  r"|[（「『(]*(?:[!-~]+(?:(?<=\d)[^\x00-\x7f\s（「『。、])?|.)"
                  r"[。、，．）」』：；！？・)ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ]*")


def wrap(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    """`text` in lines of at most `width` columns (an over-long ASCII word overflows)."""
    lines, line = [], first
    for unit in UNIT.findall(text):
        if unit.isspace():
            line += " " if line.strip() else ""
            continue
        if line.strip() and columns(line + unit) > width:
            lines.append(line.rstrip())
            line = rest
        line += unit
    lines.append(line.rstrip())
    return lines


def _paragraphs(text: str, width: int, indent: str) -> str:
    blocks = []
    for block in re.split(r"\n\s*\n", text.strip("\n")):
        if block.startswith("\b"):
            blocks.append("\n".join(indent + line for line in block[1:].strip("\n").splitlines()))
            continue
        lines = [line.strip() for line in block.splitlines()]
        joined = lines[0] if lines else ""
        for line in lines[1:]:  # no space between two Japanese lines of one paragraph
            wide = columns(joined[-1:] + line[:1]) > 2
            joined += line if wide else " " + line
        blocks.append("\n".join(wrap(joined, width, indent, indent)))
    return "\n\n".join(blocks)


def _wide(text: str) -> bool:
    return columns(text) != len(text)


class HelpFormatter(click.HelpFormatter):
    """Click's help formatter, with our words for Click's and Japanese wrapped by columns."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, f"{_('Usage:')} " if prefix is None else prefix)

    def write_heading(self, heading: str) -> None:
        super().write_heading(_(CLICK_WORDS[heading]) if heading in CLICK_WORDS else heading)

    def write_text(self, text: str) -> None:
        if not _wide(text):
            super().write_text(text)
            return
        self.write(_paragraphs(text, self.width, " " * self.current_indent) + "\n")

    def write_dl(self, rows, col_max: int = 30, col_spacing: int = 2) -> None:
        rows = [(first, _notes(second)) for first, second in rows]
        if not any(_wide(second) for _first, second in rows):
            super().write_dl(rows, col_max, col_spacing)
            return
        first_col = min(max(columns(first) for first, _second in rows), col_max) + col_spacing
        text_width = max(self.width - first_col - 2, 10)
        for first, second in rows:
            self.write(f"{'':>{self.current_indent}}{first}")
            if not second:
                self.write("\n")
                continue
            if columns(first) <= first_col - col_spacing:
                self.write(" " * (first_col - columns(first)))
            else:
                self.write("\n" + " " * (first_col + self.current_indent))
            lines = _paragraphs(second, text_width, "").splitlines() or [""]
            self.write(lines[0] + "\n")
            for line in lines[1:]:
                self.write(f"{'':>{first_col + self.current_indent}}{line}\n" if line else "\n")


def _notes(text: str) -> str:
    """An option's help with Click's words in ours: its own help and "[default: 2; 1<=x<=4]"."""
    if text in CLICK_WORDS:
        return _(CLICK_WORDS[text])
    for english, message in NOTES.items():
        text = text.replace(english, _(message))
    return text


class HelpContext(click.Context):
    formatter_class = HelpFormatter


class TranslatedGroup(click.Group):
    """The root group: translates the command tree before each run (see the module's doc)."""

    context_class = HelpContext

    def main(self, *args, **kwargs):
        translate_tree(self)
        return super().main(*args, **kwargs)
