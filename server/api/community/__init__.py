"""/api/v1: finding a game and playing again: rematches (and, beside them, open games)."""
