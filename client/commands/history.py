"""The log: `log` exports it, `replay` shows any point of it, `verify` re-decides it offline."""
COMMANDS = []
