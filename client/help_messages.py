"""The Babel extraction method of the command line (babel-client.cfg): the messages marked with
`_`/`N_` as Babel's Python extractor finds them, and the help texts Click shows, which no
keyword marks: each command's docstring (without its `@example`, whose lines are commands) and
each `help="..."` of an option. client/help_text.py looks them up by the same English text."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator

from babel.messages.extract import extract_python

COMMAND_DECORATORS = {"command", "group"}


def help_texts(source: str) -> Iterator[tuple[int, str]]:
    """(line, English text) of every command docstring and `help=` string in `source`."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and any(
                _called(decorator) in COMMAND_DECORATORS for decorator in node.decorator_list):
            docstring = ast.get_docstring(node, clean=True)
            if docstring:
                yield node.body[0].lineno, docstring.rstrip()
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if (keyword.arg == "help" and isinstance(keyword.value, ast.Constant)
                        and isinstance(keyword.value.value, str)):
                    yield keyword.value.lineno, inspect.cleandoc(keyword.value.value)


def _called(decorator: ast.expr) -> str | None:
    func = decorator.func if isinstance(decorator, ast.Call) else decorator
    return getattr(func, "attr", getattr(func, "id", None))


def extract(fileobj, keywords, comment_tags, options) -> Iterator[tuple]:  # noqa: ANN001
    """A Babel extraction method: the Python extractor's messages, then the help texts."""
    yield from extract_python(fileobj, keywords, comment_tags, options)
    fileobj.seek(0)
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for lineno, text in help_texts(source):
        yield lineno, None, text, ["a --help text"]
