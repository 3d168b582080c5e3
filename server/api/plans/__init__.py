"""/api/v1/games/{id}/plan: the lines a player leaves for their next turn (server/plans/)."""
