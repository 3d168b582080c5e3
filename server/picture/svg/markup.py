"""A little SVG writer: elements as strings, every text and attribute XML-escaped.

Names come from players (untrusted): nothing reaches the output without `escape` or `attrs`.
"""

from __future__ import annotations

from functools import cache
from html import escape as _escape

# XML 1.0 forbids these control characters anywhere: they are dropped.
_CONTROL = dict.fromkeys(c for c in range(32) if c not in (9, 10, 13))


def escape(text: object) -> str:
    """Text content: &, < and > escaped, control characters removed."""
    return _escape(str(text).translate(_CONTROL), quote=False)


def _attribute_value(value: object) -> str:
    return _escape(str(value).translate(_CONTROL), quote=True)


@cache
def _attribute_name(name: str) -> str:
    return name.rstrip("_").replace("_", "-")


def attrs(**values: object) -> str:
    """` name="value"` pairs in the order given; None is left out; `class_` is `class`,
    `font_size` is `font-size`."""
    parts = []
    for name, value in values.items():
        if value is None:
            continue
        if isinstance(value, float):
            shown = f"{value:.1f}"
            if shown.endswith(".0"):
                shown = shown[:-2]
        elif isinstance(value, int):
            shown = str(value)
        else:
            shown = _attribute_value(value)
        parts.append(f' {_attribute_name(name)}="{shown}"')
    return "".join(parts)


def element(tag: str, content: str = "", **values: object) -> str:
    if content:
        return f"<{tag}{attrs(**values)}>{content}</{tag}>"
    return f"<{tag}{attrs(**values)}/>"


def text(x: float, y: float, words: object, **values: object) -> str:
    return element("text", escape(words), x=float(x), y=float(y), **values)


def group(children: list[str], **values: object) -> str:
    return f"<g{attrs(**values)}>" + "".join(children) + "</g>"


def points(pairs: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pairs)
