"""Finding a game: the public games waiting for players (`open_games`) and the seeks that make a
game of their own when enough of them fit (`seeks`). Core: it builds on the lobby
(server/games) and knows no way in."""
