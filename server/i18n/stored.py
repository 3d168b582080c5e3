"""A sentence kept in a row to be said later in its reader's language (issue 30): an engine
`Refusal` (its template and values, the names and seats in them as what they are) or a `Said`,
written as JSON (`stored`) and read back as the same sentence (`restored`).

    {"refusal": "you can restore relics only ...", "values": {...}}
    {"said": 'line {number}, "{text}": {reason}', "values": {"number": 2, ...}}
    {"name": "Jolty Jackhammer", "printed": "Jolty Jackhammer"}   (engine.errors.Name)
    {"seat": 1}                                                     (engine.errors.Seat)
    {"listed": [...], "separator": ", "}                           (Listed, Reasons)

Plain strings, numbers and None are kept as they are, so a row written before (its English as
a string) reads back as that English.
"""

from __future__ import annotations

from typing import Any

from engine.errors import Listed, Name, Reasons, Refusal, Seat
from server.i18n import Said


def stored(value: Any) -> Any:
    """`value` as JSON: what `restored` reads back as the same sentence."""
    if isinstance(value, Refusal):
        return {"refusal": value.template,
                "values": {key: stored(item) for key, item in value.values.items()}}
    if isinstance(value, Said):
        return {"said": value.message,
                "values": {key: stored(item) for key, item in value.values.items()}}
    if isinstance(value, Name):
        return {"name": str(value), "printed": value.printed}
    if isinstance(value, Seat):
        return {"seat": int(value)}
    if isinstance(value, Listed):
        return {"listed": [stored(item) for item in value], "separator": value.separator}
    if isinstance(value, str):
        return str(value)
    return value


def restored(data: Any) -> Any:
    """The sentence `stored` wrote (a string as it is: a row kept before, in English)."""
    if not isinstance(data, dict):
        return data
    values = {key: restored(item) for key, item in (data.get("values") or {}).items()}
    if "refusal" in data:
        return Refusal(data["refusal"], **values)
    if "said" in data:
        return Said(data["said"], **values)
    if "name" in data:
        return Name(data["name"], data.get("printed"))
    if "seat" in data:
        return Seat(data["seat"])
    if "listed" in data:
        kind = Reasons if data.get("separator") == Reasons.separator else Listed
        return kind(restored(item) for item in data["listed"])
    return data
