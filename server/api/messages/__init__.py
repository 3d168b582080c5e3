"""/api/v1/games/{id}/messages: table talk."""
