"""No English word shown to players escapes the catalogs (issue 30), beside test_catalogs.py,
which checks every message marked for them has its Japanese:

- the mail templates (server/notifications/templates/email) have no word outside `_()`/`_h()`;
- the command line's messages (client/): every message passed to click.echo, ClickException,
  UsageError or BadParameter is a `_()` lookup, not a bare English literal (the --help texts
  are extracted by client/help_messages.py and checked in tests/client/test_help_text.py);
- the engine's refusals (engine/): every rule error and `Refusal` is given a literal template
  (its values apart, engine/errors.py), and each template has its Japanese in engine.po; so is
  every reason the notation gives (a NotationError's, a line's `fail`: a Refusal, not text)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[3]
EMAIL = ROOT / "server/notifications/templates/email"
# Words a mail keeps in every language: the reply marker the quote-cutter looks for, the mail
# words and commands a player types, and the game's own name for the solo opponent.
KEPT = {"Reply", "above", "this", "line", "rematch", "iridescia", "back", "join"}
TAGS = re.compile(r"\{%.*?%\}|\{\{.*?\}\}|\{#.*?#\}|<[^>]*>|&\w+;", re.S)


@pytest.mark.parametrize("template", sorted(p.name for p in EMAIL.iterdir()))
def test_a_mail_template_has_no_word_outside_the_catalog(template):
    text = re.sub(r"<style>.*?</style>", " ", (EMAIL / template).read_text(), flags=re.S)
    text = TAGS.sub(" ", text)
    words = [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in KEPT]
    assert words == [], f"{template}: {words} (wrap them in _() or _h())"


SHOWN = {"echo", "secho", "ClickException", "UsageError", "BadParameter"}


def _bare_messages(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        name = getattr(node.func, "attr", getattr(node.func, "id", None))
        arg = node.args[0]
        if name not in SHOWN:
            continue
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            literal = arg.value
        elif isinstance(arg, ast.JoinedStr):
            if any(isinstance(v, ast.FormattedValue) and v.format_spec is not None
                   and re.match(r"[<>^]", "".join(getattr(x, "value", "") for x in
                                                  v.format_spec.values))
                   for v in arg.values):
                continue  # a table's aligned row: its headings are the column names
            literal = "".join(v.value for v in arg.values if isinstance(v, ast.Constant))
        else:
            continue
        if re.search(r"[A-Za-z]{3,}", literal):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {literal[:60]!r}")
    return found


def test_every_message_of_the_command_line_is_looked_up_in_its_catalog():
    bare = [m for path in sorted((ROOT / "client").rglob("*.py")) for m in _bare_messages(path)]
    assert bare == [], "wrap them in client.i18n._:\n" + "\n".join(bare)


# What makes a refusal (engine/errors.py, engine/versions.py, engine/board.py): Babel extracts
# the first argument of each (babel-engine.cfg).
REFUSALS = {"RuleError", "InvalidCommand", "IllegalCommand", "NotYourTurn", "GameOver",
            "UnsupportedRulesVersion", "Refusal", "HexNameError"}
ENGINE_PO = ROOT / "engine/translations/ja/LC_MESSAGES/engine.po"


# The notation's reasons (engine/text/notation_words.py): a NotationError's second argument and
# what a line's words `fail` with are a Refusal, never a bare string.
NOTATION = {"NotationError": 1, "fail": 0}


def _unmarked_reason(node: ast.AST) -> bool:
    """A notation reason written as text (a literal, an f-string, a concatenation): it would
    reach a Japanese reader in English."""
    if not isinstance(node, ast.Call):
        return False
    name = getattr(node.func, "id", getattr(node.func, "attr", None))
    at = NOTATION.get(name)
    if at is None or len(node.args) <= at:
        return False
    arg = node.args[at]
    return not (isinstance(arg, (ast.Name, ast.Attribute, ast.Subscript, ast.IfExp)) or (
        isinstance(arg, ast.Call) and getattr(arg.func, "id", None) in REFUSALS | {"_no_argument"}
    ) or (isinstance(arg, ast.Call) and getattr(arg.func, "attr", None) == "fail"))


def _refusals(path: Path) -> tuple[list[str], list[str]]:
    """The templates of the refusals made in `path`, and where one is made of anything else than a
    literal template (an f-string, a concatenation, a .format()): no catalog could hold it."""
    templates, unmarked = [], []
    for node in ast.walk(ast.parse(path.read_text())):
        if _unmarked_reason(node):
            unmarked.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            continue
        name = getattr(getattr(node, "func", None), "id", None)
        if not (isinstance(node, ast.Call) and name in REFUSALS and node.args):
            continue
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            templates.append(arg.value)
        elif isinstance(arg, (ast.Name, ast.Attribute, ast.Subscript)) or (
                isinstance(arg, ast.Call) and getattr(arg.func, "id", None) in REFUSALS):
            continue  # a Refusal made where it is written (a reason, a table of refusals)
        else:
            unmarked.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return templates, unmarked


def test_every_refusal_of_the_engine_is_a_template_with_its_japanese():
    templates, unmarked = [], []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        found, bad = _refusals(path)
        templates += found
        unmarked += bad
    assert len(templates) > 100
    assert unmarked == [], ("write the refusal as a literal template and its values, "
                            "IllegalCommand(\"... {hex} ...\", hex=h):\n" + "\n".join(unmarked))
    with open(ENGINE_PO, "rb") as po:
        japanese = read_po(po)
    untranslated = sorted({t for t in templates if not (japanese.get(t) and japanese.get(t).string)})
    assert untranslated == [], "run `make translations` and translate in engine.po:\n" + "\n".join(
        untranslated)


def test_a_notation_reason_written_as_text_is_caught():
    """The guard above fails on a NotationError whose reason is an f-string or a bare literal."""
    sources = ['raise NotationError(line, f"{line} is wrong")', 'raise w.fail("no such gem")',
               'raise NotationError(line, "an empty line; the commands are " + words)']
    for source in sources:
        tree = ast.parse(source)
        assert any(_unmarked_reason(node) for node in ast.walk(tree)), source
    kept = ['raise NotationError(line, Refusal("an empty line"))',
            'raise w.fail(Refusal("{hex} is named twice", hex=h))', "raise w.fail(reason)"]
    for source in kept:
        assert not any(_unmarked_reason(node) for node in ast.walk(ast.parse(source))), source
