"""Due times on the game row: when the scheduler next has something to do for a game."""


def update_due_times(session, game, state_after, now):
    """Set the game's reminder, deadline and automatic-turn times (entry point; logic lands next)."""
    return None
