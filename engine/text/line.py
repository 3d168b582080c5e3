"""A line of styled text for a terminal; its `plain` text is what is drawn without colour."""

from __future__ import annotations


class Line:
    """One line of text as styled spans (a small stand-in for rich.text.Text)."""

    def __init__(self, text: str = "", style: str = ""):
        self.spans: list[tuple[str, str]] = [(text, style)] if text else []

    def append(self, text: str, style: str = "") -> Line:
        if text:
            self.spans.append((text, style))
        return self

    def extend(self, other: Line) -> Line:
        self.spans.extend(other.spans)
        return self

    @property
    def plain(self) -> str:
        return "".join(text for text, _ in self.spans)

    def rstrip(self) -> None:
        while self.spans and not self.spans[-1][0].rstrip():
            self.spans.pop()
        if self.spans:
            text, style = self.spans[-1]
            self.spans[-1] = (text.rstrip(), style)

    def join(self, lines: list[Line]) -> Line:
        joined = Line()
        for index, line in enumerate(lines):
            if index:
                joined.spans.extend(self.spans)
            joined.spans.extend(line.spans)
        return joined
