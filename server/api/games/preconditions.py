"""Which version a command is played against: ``expected_version`` in the body, ``If-Match``.

One of the two is required (428). RFC 9110 (13.1.1, 13.2.2): a request whose If-Match fails is
not applied, whatever else it carries, so the header is checked first and a stale one answers
412 even beside a current ``expected_version``. If-Match compares strongly: ``"12"`` matches
version 12, and so does the view's ``"12.region.gem"`` (its order after the version);
``W/"12"`` matches nothing (a weak tag promises no exact version).
"""

from __future__ import annotations

from flask import request

from server.http.errors import fail

MISSING = ("say which version you are playing against: 'expected_version' in the body or an "
           "If-Match header")


def expected_version(data: dict, version: int) -> int:
    """``version`` (the game's) when the request was decided against it; else 409, 412, 422 or
    428, each saying the current version."""
    header = request.headers.get("If-Match")
    if header is not None:
        tags = _tags(header)
        if str(version) not in tags:
            said = ", ".join(tags)
            fail(412, f"the game is at version {version}, If-Match said {said}: refresh and "
                      "retry (nothing was played)", current_version=version)
    if "expected_version" in data:
        expected = data["expected_version"]
        if expected != version:
            fail(409, f"the game is at version {version}, you sent {expected}: refresh and "
                      "retry", current_version=version)
    elif header is None:
        fail(428, MISSING, current_version=None)
    return version


def lost_the_race(current: int) -> None:
    """Another command landed between the check above and this one's commit: nothing was
    played. A request that named its version by If-Match gets 412 as if it had arrived a moment
    later (it was 409 for some racing posts, issue 32); one with ``expected_version`` 409."""
    header = request.headers.get("If-Match")
    if header is not None:
        fail(412, f"the game is at version {current}, If-Match said {header.strip()}: another "
                  "command landed first; refresh and retry (nothing was played)",
             current_version=current)
    fail(409, f"another command landed first; the game is at version {current}: "
              "refresh and retry", current_version=current)


def _tags(header: str) -> list[str]:
    """The versions an If-Match lists (``"12"``, ``"11", "12"``); weak ones as ``W/12``, which
    match no version. 422 for anything else, ``*`` included: it names no version."""
    tags = []
    for part in header.split(","):
        text = part.strip()
        weak = text.startswith("W/")
        if weak:
            text = text[2:]
        # A view's tag names its order after the version ("12.region.gem"): the same version.
        version = text[1:-1].partition(".")[0]
        if len(text) < 3 or text[0] != '"' or text[-1] != '"' or not version.isdigit():
            fail(422, f"If-Match must be a game version in quotes such as \"12\", not {header!r}",
                 header=header)
        tags.append(f"W/{version}" if weak else version)
    return tags
