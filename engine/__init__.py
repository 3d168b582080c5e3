"""Gems of Iridescia rules engine: pure, event-sourced, no I/O. See docs/engine-api.md."""

from engine.api import (
    RULES_VERSION,
    canonical_command,
    current_player,
    is_terminal,
    legal_commands,
    outcome,
    pending_kind,
    rng_for,
)
from engine.commands import Command, command_from_dict, command_to_dict
from engine.errors import GameOver, IllegalCommand, InvalidCommand, NotYourTurn, Refusal, RuleError
from engine.events import Event, event_from_dict, event_to_dict
from engine.options import Options
from engine.rules.decide import decide
from engine.rules.evolve import evolve, replay
from engine.state import State, state_from_dict, state_to_dict
from engine.versions import SUPPORTED_VERSIONS, Rules, UnsupportedRulesVersion, rules_for
from engine.view import redact_event, view

__all__ = [
    "RULES_VERSION", "SUPPORTED_VERSIONS", "Command", "Rules", "UnsupportedRulesVersion",
    "canonical_command", "Event", "GameOver", "IllegalCommand", "InvalidCommand",
    "NotYourTurn", "Options", "Refusal", "RuleError", "State", "command_from_dict", "command_to_dict",
    "current_player", "decide", "event_from_dict", "event_to_dict", "evolve", "is_terminal",
    "legal_commands", "outcome", "pending_kind", "redact_event", "replay", "rng_for",
    "rules_for", "state_from_dict", "state_to_dict", "view",
]
