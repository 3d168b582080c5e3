"""Table talk: messages between a game's players, and a spectator channel on public games.

Stored beside the log (the ``messages`` table), never in the engine's events. Posted through the
API, the game's page and a mail's `say` line (`service.post`), shown in the next email to each
player, by the CLI, on the page and, when asked, in the export.
"""
