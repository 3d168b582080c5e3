"""A little SVG writer: elements as strings, every text and attribute XML-escaped.

Names come from players (untrusted): nothing reaches the output without `escape` or `attrs`.
"""

from __future__ import annotations

from xml.sax.saxutils import escape as _escape
from xml.sax.saxutils import quoteattr


def escape(text: object) -> str:
    """Text content, with control characters (which XML 1.0 forbids) removed."""
    clean = "".join(ch for ch in str(text) if ch in "\t\n" or ord(ch) >= 32)
    return _escape(clean)


def attrs(**values: object) -> str:
    """` name="value"` pairs in the order given; None is left out; `class_` is `class`,
    `font_size` is `font-size`."""
    parts = []
    for name, value in values.items():
        if value is None:
            continue
        name = name.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = f"{value:.1f}".rstrip("0").rstrip(".")
        parts.append(f" {name}={quoteattr(escape(value))}")
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
