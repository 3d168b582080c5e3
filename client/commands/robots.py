"""Bots: `autoplay` plays my turns with an engine policy; `simulate` wraps the engine's simulator."""
COMMANDS = []
