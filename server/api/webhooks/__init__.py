"""/api/v1/games/{id}/webhook: a player's own webhook on a game."""
