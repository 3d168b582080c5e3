"""An HTML-only mail as the text its reader sees: blocks and `<br>` as line breaks, a
`<blockquote>` (and Gmail's, Yahoo's and Outlook's quote containers) as `>` lines, and nothing of
what a mail reader does not show (issue 32, L2: hidden text was read as typed and run): `hidden`,
`display:none`, `visibility:hidden`, `font-size:0`, `opacity:0`, white on white, text in a class
a `<style>` hides, `<style>`, `<script>`, `<head>`.

The standard library's `html.parser`, one pass; every element is pushed and popped once (an end
tag with no open element of its name is ignored at once), so the work is linear.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

BLOCKS = {"p", "div", "br", "tr", "li", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6",
          "pre", "hr", "blockquote", "section", "article", "header", "footer", "dd", "dt"}
VOID = {"br", "hr", "img", "input", "meta", "link", "area", "base", "col", "embed", "source",
        "track", "wbr", "param"}
SKIPPED = {"style", "script", "head", "title", "template", "noscript"}
QUOTE_CLASSES = ("gmail_quote", "yahoo_quoted", "moz-cite-prefix", "divrplyfwdmsg", "protonmail_quote",
                 "apple-mail-quote")
HIDING = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d]*[1-9])"
                    r"|opacity\s*:\s*0(?![.\d]*[1-9])|max-height\s*:\s*0(?![.\d]*[1-9])")
WHITE = {"#fff", "#ffffff", "white", "rgb(255,255,255)"}
STYLE_RULE = re.compile(r"([^{}]{1,500})\{([^{}]{0,2000})\}")
MAX_DEPTH = 200  # deeper elements are read as plain text of their parent


def html_to_text(html: str) -> str:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.text()


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, hides, quotes)
        self.open_count: dict[str, int] = {}
        self.hidden = 0
        self.quoted = 0
        self.skipping = 0
        self.hidden_classes: set[str] = set()
        self.lines: list[str] = []
        self.current: list[str] = []
        self.style_text: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in BLOCKS:
            self._break()
        if tag in VOID:
            return
        if len(self.stack) >= MAX_DEPTH:
            return
        values = {name: (value or "") for name, value in attrs}
        classes = values.get("class", "").lower().split()
        hides = self._hides(values, classes)
        quotes = tag == "blockquote" or any(name in QUOTE_CLASSES for name in classes) \
            or values.get("id", "").lower() == "divrplyfwdmsg"
        skips = tag in SKIPPED
        self.stack.append((tag, hides or skips, quotes))
        self.open_count[tag] = self.open_count.get(tag, 0) + 1
        self.hidden += hides or skips
        self.quoted += quotes
        if tag == "style":
            self.style_text = []

    def handle_endtag(self, tag):
        if tag in BLOCKS:
            self._break()
        if not self.open_count.get(tag):
            return
        while self.stack:
            name, hides, quotes = self.stack.pop()
            self.open_count[name] -= 1
            self.hidden -= hides
            self.quoted -= quotes
            if name == "style":
                self._learn_styles("".join(self.style_text))
            if name == tag:
                break

    def handle_data(self, data):
        if self.stack and self.stack[-1][0] == "style":
            self.style_text.append(data)
            return
        if self.hidden:
            return
        self.current.append(data)

    def _hides(self, values: dict[str, str], classes: list[str]) -> bool:
        if "hidden" in values:
            return True
        style = values.get("style", "").lower()
        if style and (HIDING.search(style) or _white_on_white(style)):
            return True
        return any(name in self.hidden_classes for name in classes)

    def _learn_styles(self, css: str) -> None:
        for selectors, body in STYLE_RULE.findall(css[:100_000]):
            if HIDING.search(body.lower()) or _white_on_white(body.lower()):
                for selector in selectors.split(","):
                    selector = selector.strip()
                    if selector.startswith(".") and selector[1:].replace("-", "").replace(
                            "_", "").isalnum():
                        self.hidden_classes.add(selector[1:].lower())

    def _break(self) -> None:
        text = " ".join("".join(self.current).split())
        self.current = []
        if text:
            self.lines.append(("> " if self.quoted else "") + text)

    def text(self) -> str:
        self._break()
        return "\n".join(self.lines)


def _white_on_white(style: str) -> bool:
    """Text coloured white with no background of another colour: invisible in every reader
    with a white page."""
    declarations = dict(
        (name.strip(), value.strip().replace(" ", ""))
        for name, _, value in (part.partition(":") for part in style.split(";")) if value)
    color = declarations.get("color")
    background = declarations.get("background-color", declarations.get("background", "#fff"))
    return color is not None and color in WHITE and background in WHITE
