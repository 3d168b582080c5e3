"""A line classifier in one pass: each line is quoted (`>`), an attribution, the start of a quoted
block (a header block, a separator, our marker), a signature's start, or text. Every test on a
line is a string method or an anchored expression over a line of bounded length, and looks at
most two lines ahead, so the whole is linear in the text's size."""

from __future__ import annotations

import re

from engine.text.wording import CONTROL_CHARACTERS
from server.inbound.quotes.marker import MARKER_WORDS
from server.inbound.quotes.words import BLOCK_KEYS, FROM_KEYS, SEPARATOR_WORDS, SIGN_OFFS, WROTE

MAX_LINES = 2000  # a reply's text is read this far (our own mail, quoted whole, is ~150 lines)
MAX_LINE_CHARS = 2000  # a decoded line is cut here: no command is longer
ON_WORDS = ("on ", "am ", "le ", "el ", "il ", "op ", "den ", "em ", "w dniu ", "dne ")
KEY_CHARS = re.compile(r"[^\W\d_][^\W\d_ '’./-]*(?:[ '’./-][^\W\d_]+){0,3}")
COLONS = (":", "：")


def typed_lines(text: str) -> list[str]:
    """The lines of `text` the sender typed: stripped, in order, blank ones kept."""
    lines = [_plain(line) for line in text.splitlines()[:MAX_LINES]]
    kept: list[str] = []
    in_signature = False
    previous_kept = False  # whether the line just before was kept (for two-line attributions)
    for i, line in enumerate(lines):
        stripped = line.strip()
        low = stripped.lower()
        if stripped.startswith(">"):
            in_signature, previous_kept = False, False
            continue
        if MARKER_WORDS in low or _separator(stripped, low, lines, i) or _header_block(lines, i):
            _drop_header_tail(kept)
            break
        attributed = _attribution(stripped, low)
        if attributed is None and stripped.endswith(COLONS) and _quote_follows(lines, i, 1):
            attributed = ""  # whatever its words, the line that introduces a `>` quote
        if attributed is not None:
            if previous_kept and kept and kept[-1].lower().startswith(ON_WORDS):
                kept.pop()  # the attribution's first half, wrapped by the client
            if attributed and not in_signature:
                kept.append(attributed)
            if _quote_follows(lines, i):
                previous_kept = False
                continue
            break  # quoted without `>` (or run on): all the rest is the quoted mail
        previous_kept = False
        if in_signature:
            continue
        if line.rstrip() == "--" or line == "-- " or low.startswith(SIGN_OFFS):
            in_signature = True
            continue
        kept.append(stripped)
        previous_kept = bool(stripped)
    while kept and not kept[-1]:
        kept.pop()
    start = next((n for n, line in enumerate(kept) if line), len(kept))
    return kept[start:]


def _plain(line: str) -> str:
    return CONTROL_CHARACTERS.sub("", line[:MAX_LINE_CHARS].replace("\xa0", " ")).rstrip("\r")


def header_key(line: str) -> str | None:
    """`from` for "From: Ana <ana@x>" (or "*From:*", Outlook's bold in text): a short key of at
    most four words before a colon, in any script; None when the line is not shaped so."""
    text = line.strip().lstrip("*").lstrip()
    cut = min((p for p in (text.find(c, 0, 40) for c in COLONS) if p > 0), default=-1)
    if cut < 0:
        return None
    key = text[:cut].rstrip("* ").lower()
    return key if KEY_CHARS.fullmatch(key) else None


def _header_block(lines: list[str], i: int) -> bool:
    """`Key: value` lines: a From key then a known key, or a first holding an address then a
    known key, another address or a third such line: Outlook's block above the mail it quotes,
    in any language (issue 32, M2: Swedish, Polish, Japanese and Russian ones ran quoted commands)."""
    first = header_key(lines[i])
    if first is None or i + 1 >= len(lines):
        return False
    second = header_key(lines[i + 1])
    if second is None:
        return False
    if first in FROM_KEYS and second in BLOCK_KEYS:
        return True
    if "@" not in lines[i]:
        return False
    return (second in BLOCK_KEYS or "@" in lines[i + 1] or first in FROM_KEYS
            or i + 2 < len(lines) and header_key(lines[i + 2]) is not None)


def _separator(stripped: str, low: str, lines: list[str], i: int) -> bool:
    """"-----Original Message-----" (in many languages), QQ Mail's "---- 原始邮件 ----", or
    Outlook's line of underscores when a header block follows."""
    if stripped.startswith(("---", "___", "———")) or stripped.endswith(("---", "———")):
        words = low.strip("-_—= ")
        if words and any(word in words for word in SEPARATOR_WORDS):
            return True
        if not words and stripped.startswith("___") and i + 1 < len(lines):
            return header_key(lines[i + 1]) is not None
    return False


def _attribution(stripped: str, low: str) -> str | None:
    """None when the line is no attribution; else the text typed before it on the same line
    ('' for most: Yahoo Mail for Android runs the attribution on after the text)."""
    if not stripped.endswith(COLONS):
        if low.startswith(ON_WORDS) or " on " in low:
            for word in WROTE:  # run on: "On Sun, 1 Mar 2026, Iridescia wrote: Hello Ada,"
                at = low.find(word + ":")
                if at > 0:
                    return _before_on(stripped, low, at)
        return None
    if "@" in low:  # mutt's "* Ana <ana@x> [2026-03-01]:", Japanese Gmail's "... <ana@x>:"
        return ""
    body = low[:-1].rstrip()
    for word in WROTE:
        at = body.rfind(word)
        if at >= 0 and (at == 0 or not body[at - 1].isalnum()):
            return _before_on(stripped, low, at)
    return None


def _before_on(stripped: str, low: str, at: int) -> str:
    """What was typed before "On ... wrote:" on the same line."""
    if low.startswith(ON_WORDS):
        return ""
    starts = [p for p in (low.rfind(" " + word, 0, at) for word in ON_WORDS) if p >= 0]
    return stripped[:min(starts)].strip() if starts else ""


def _quote_follows(lines: list[str], i: int, within: int = 3) -> bool:
    """Whether `>` lines follow the attribution (blank lines between): a quote we skip line by
    line, so that text under it (bottom-posting) is still read."""
    for line in lines[i + 1:i + 1 + within]:
        if line.strip():
            return line.lstrip().startswith(">")
    return False


def _drop_header_tail(kept: list[str]) -> None:
    """Lines of a header block or a separator above our marker are not the sender's."""
    while kept and (not kept[-1] or header_key(kept[-1]) is not None
                    or kept[-1].strip("-_—= ") == ""):
        kept.pop()
