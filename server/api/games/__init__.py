"""/api/v1/games: the lobby, playing a game, its view, the event feed and the export."""
