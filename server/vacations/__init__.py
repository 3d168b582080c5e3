"""Time away from the table: a player's vacation, and a game paused by all its players.

While a player is away (`users.away_until` is ahead), the turns waiting for them stand still:
no deadline, no reminder, no automatic turn (server/games/holds.py); when they are back,
each such turn has the time it had left. The other players see "away until ..." on the game,
its page and in their mails. A player has `VACATION_DAYS_PER_YEAR` days a calendar year
(allowance.py). A paused game stands still for everybody (pauses.py). docs/vacations.md tells
the players.
"""
