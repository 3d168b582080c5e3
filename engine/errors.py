"""Why a command was refused. Every message is for the player and quotes their input."""


class RuleError(Exception):
    """Base class: the command was not applied."""


class InvalidCommand(RuleError):
    """The command is malformed: unknown type, missing or badly typed field."""


class IllegalCommand(RuleError):
    """The command is well formed but the rules forbid it now."""


class NotYourTurn(RuleError):
    """Another seat is to act."""


class GameOver(RuleError):
    """The game has ended; nothing more can be played."""
