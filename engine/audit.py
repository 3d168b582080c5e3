"""Checking a finished game's export: the seed against the hash published at the start, the
players' words (engine/seeds.py), and every command re-decided into the very events of the log.

Pure: the `iridescia verify` command and the server's /verify page both call `verify_export`
with the export as a dict and print the lines it returns, or the `Diverges` it raises. Both are
written with `translations` (a gettext-like catalog of the engine's words, as engine/text takes;
None: English), so the page says them in its reader's language.
"""

from __future__ import annotations

import gettext
import json

from engine.api import is_terminal, outcome, rng_for
from engine.commands import command_from_dict
from engine.errors import RuleError
from engine.events import event_to_dict
from engine.rules.decide import decide
from engine.rules.evolve import evolve
from engine.seeds import MIXED, SEED_RULES, SERVER_ONLY, dice_seed, seed_hash
from engine.versions import rules_for

ENGLISH = gettext.NullTranslations()


class Diverges(Exception):
    """The log is not what its seed, words and commands make; the message says where."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotALog(ValueError):
    """The text is not a game log (JSON lines as `iridescia log` writes them, or one export)."""


def parse_log(text: str, translations=None) -> dict:  # noqa: ANN001 (any gettext-like catalog)
    """A log's text (JSON lines of `game`, `command` and `event` records, or the export's one
    JSON object) as an export dict."""
    _ = (translations or ENGLISH).gettext
    stripped = text.strip()
    try:
        if stripped.startswith("{") and "\n" not in stripped:
            lines = [json.loads(stripped)]
        else:
            lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    except ValueError as exc:
        raise NotALog(_("not a JSON-lines game log: {problem}").format(problem=exc)) from None
    if len(lines) == 1 and isinstance(lines[0], dict) and "record" not in lines[0]:
        return lines[0]
    export: dict = {"commands": [], "events": []}
    for number, line in enumerate(lines, start=1):
        kind = line.pop("record", None) if isinstance(line, dict) else None
        if kind == "game":
            export.update(line)
        elif kind in ("command", "event"):
            export[kind + "s"].append(line)
        else:
            raise NotALog(_("not a game log: its line {number} is no game log record").format(
                number=number))
    return export


def _engine_event(stored: dict) -> dict:
    """An event as the API serves it ({seq, type, payload, ...}) in the engine's JSON form."""
    payload = dict(stored.get("payload") or {})
    payload.setdefault("type", stored.get("type"))
    return payload


def _comparable(value: object) -> str:
    return json.dumps(value, sort_keys=True)


def _first_difference(stored: dict, produced: dict, _) -> str:  # noqa: ANN001
    for key in sorted(set(stored) | set(produced)):
        if stored.get(key) != produced.get(key):
            return _("{key}: the log has {stored!r}, the engine decides {produced!r}").format(
                key=key, stored=stored.get(key), produced=produced.get(key))
    return _("no field differs")


def _player_ids(commands: list[dict], _) -> list[str]:  # noqa: ANN001
    start = next((c["command"] for c in commands if c["command"].get("type") == "start_game"), None)
    if start is None:
        raise Diverges(_("the log has no start_game command, so the players' order is unknown"))
    return [str(p) for p in start.get("player_ids") or []]


def _seed_lines(export: dict, commands: list[dict], _) -> tuple[str, list[str]]:  # noqa: ANN001
    """The dice seed and the lines saying what was checked about it."""
    seed, published = export.get("seed"), export.get("seed_hash")
    if not seed:
        raise Diverges(_("the log has no seed (only a finished game's log can be verified)"))
    digest = seed_hash(str(seed))
    if digest != published:
        raise Diverges(_("sha256(seed) is {digest}, but the published hash is {published}")
                       .format(digest=digest, published=published))
    lines = [_("seed: sha256 matches the published hash {published}").format(published=published)]
    rule = export.get("seed_rule") or SERVER_ONLY
    if rule not in SEED_RULES:
        raise Diverges(_("the log's seed rule {rule!r} is unknown here ({rules})").format(
            rule=rule, rules=", ".join(SEED_RULES)))
    if rule != MIXED:
        lines.append(_("dice: drawn from the server's seed alone (the rule of games made before "
                       "the players' words)"))
        return str(seed), lines
    words = export.get("seed_contributions")
    if not isinstance(words, dict):
        raise Diverges(_("the log's seed rule mixes in the players' words, but it has none"))
    order = _player_ids(commands, _)
    names = {str(p.get("user_id")): p.get("name") for p in export.get("players") or []
             if isinstance(p, dict)}
    missing = [p for p in order if p not in words]
    if missing:
        raise Diverges(_("the log has no word for player {player} (give '' for none)").format(
            player=missing[0]))
    contributions = [str(words[p]) for p in order]
    given = [f"{names.get(p) or p} {w!r}" for p, w in zip(order, contributions, strict=True) if w]
    lines.append(_("dice: sha256 of the server's seed and the players' words in table order "
                   "({words})").format(words=_(", ").join(given) or _("no player gave one")))
    return dice_seed(str(seed), contributions, rule), lines


def verify_export(export: dict, translations=None) -> list[str]:  # noqa: ANN001
    """Check the seed and re-decide every command; return the lines saying what matched, or
    raise Diverges (both in the language of `translations`, English by default)."""
    _ = (translations or ENGLISH).gettext
    commands = sorted(export.get("commands") or [], key=lambda c: c["version"])
    seed, lines = _seed_lines(export, commands, _)
    stored_events = [_engine_event(e) for e in export.get("events") or []]
    # The game is re-decided under the rules version it was played under (the export's; a log
    # without one names it in its first event), never under this engine's current one.
    rules_version = export.get("rules_version") or next(
        (e.get("rules_version") for e in stored_events[:1] if e.get("type") == "game_started"), None)
    try:
        rules_for(rules_version or "1")
    except RuleError as exc:
        raise Diverges(_("the log's rules version cannot be re-decided here: {problem}")
                       .format(problem=exc)) from None
    state, applied = None, 0
    for record in commands:
        version = record["version"]
        if version != applied:
            raise Diverges(_("the command at version {version} follows {applied} events: the log "
                             "has a gap").format(version=version, applied=applied))
        try:
            command_dict = dict(record["command"])
            if command_dict.get("type") == "start_game" and rules_version:
                command_dict.setdefault("rules_version", rules_version)
            produced = decide(state, command_from_dict(command_dict), rng_for(seed, version))
        except RuleError as exc:
            raise Diverges(_("at version {version} the engine rejects {command}: {problem}").format(
                version=version, command=record["command"].get("type"), problem=exc)) from None
        for event in produced:
            produced_dict = json.loads(json.dumps(event_to_dict(event)))
            if applied >= len(stored_events):
                raise Diverges(_("at version {version} the engine decides event #{number} "
                                 "({event}) that the log does not have").format(
                    version=version, number=applied + 1, event=produced_dict.get("type")))
            stored = stored_events[applied]
            if "v" not in stored:
                produced_dict.pop("v", None)
            if _comparable(stored) != _comparable(produced_dict):
                raise Diverges(_("event #{number} ({event}), from the {command} command at "
                                 "version {version}: {difference}").format(
                    number=applied + 1, event=stored.get("type"),
                    command=record["command"].get("type"), version=version,
                    difference=_first_difference(stored, produced_dict, _)))
            state = evolve(state, event)
            applied += 1
    if applied != len(stored_events):
        raise Diverges(_("the log has {count} events after the last command").format(
            count=len(stored_events) - applied))
    lines += [
        _("rules version: {version}, the game's").format(version=rules_version or "1"),
        _("commands: {commands} re-decided into {events} events, identical to the log").format(
            commands=len(commands), events=applied),
    ]
    if export.get("outcome") is not None and state is not None:
        if not is_terminal(state):
            raise Diverges(_("the log has an outcome, but the replayed game is not over"))
        if _comparable(json.loads(json.dumps(outcome(state).to_dict()))) != _comparable(export["outcome"]):
            raise Diverges(_("the final scores differ from the replayed game's"))
        lines.append(_("final scores: identical to the replayed game's"))
    return lines
