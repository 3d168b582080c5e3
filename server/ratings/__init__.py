"""Ratings (OpenSkill): derived from the finished public games in the order they ended, like a
state from its log, and kept only as a cache (`derived.py`); where they show: the players' pages,
the leaderboard, the open games (docs/community.md). Core: it reads the games and knows no way
in."""
