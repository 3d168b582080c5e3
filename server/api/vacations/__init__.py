"""/api/v1/users/me/vacation and a game's pause and resume."""
