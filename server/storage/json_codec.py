"""JSON for the API's bodies and the database's JSON columns: orjson, with the standard library
behind it for what orjson refuses.

A command post encodes JSON four or five times (its events and the command for the log, its
answer) and decodes its body: with the standard library about 5 % of a post's CPU in the
workers, several times less with orjson. What orjson does differently is kept out of sight:

- what it cannot encode (an integer beyond 64 bits, echoed back in an error) or decode (NaN,
  such an integer, a body nested deeper than 1,024 levels) goes to the standard library, which
  answers exactly as before, errors included;
- dates and dataclasses go to the caller's ``default``, as with ``json.dumps`` (Flask's gives
  HTTP dates; the database's has none, so they are refused as before);
- keys that are not strings are written as ``json.dumps`` writes them (``1`` -> ``"1"``).

Only the text differs: no blank after ``,`` and ``:`` (the API's answers had none already), and
characters beyond ASCII written as themselves in UTF-8 rather than as ``\\u`` escapes. Any JSON
reader reads the same values from both, and rows stored before read the same.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | (
    orjson.OPT_PASSTHROUGH_DATACLASS
)


def dumps(value: Any, default: Callable[[Any], Any] | None = None) -> str:
    try:
        return orjson.dumps(value, default=default, option=_OPTIONS).decode()
    except TypeError:
        return json.dumps(value, default=default, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
