"""/api/v1/games/{id}/notifications: the mail a player chooses for one game."""
