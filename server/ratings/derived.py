"""The ratings, derived from the finished games in the order they ended (``finished_at``, then
id), with OpenSkill's Plackett-Luce model (many players a game, ties allowed).

Which games count: finished public games whose seats are all people (a bot seat leaves the game
unrated). A game of 2, 3 or 4 people is rated on the track of its player count, the people
ranked by the final scores among themselves (the Rhom of a 2-player game does not count). A solo
game against the Rhom is rated on the track "solo", as a match against the Rhom, itself rated on
that track. A rating is provisional until its player has 5 rated games on the track.

Nothing is stored but the games' outcomes: the ratings are folded again when a game ends (the
number of rated games, when the last of them ended and the least and greatest game ids
are the cache's key, with the database's address), and kept in memory. A game that ended
before its outcome was kept on its row counts all the same: its outcome is derived from its log
(server/games/outcomes.py).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import func, select
from sqlalchemy.engine import Connection
from sqlmodel import Session

from server.games.outcomes import outcomes_of
from server.storage.db import sql
from server.storage.models import Game, Seat

TRACKS = ("2", "3", "4", "solo")
TRACK_NAMES = {"2": "2 players", "3": "3 players", "4": "4 players", "solo": "solo against the Rhom"}
PROVISIONAL_GAMES = 5
RHOM = "rhom"  # the Rhom's key on the solo track
MODEL = PlackettLuce()


@dataclass
class Rating:
    player: int | str  # a user id, or RHOM
    track: str
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0

    @property
    def shown(self) -> int:
        """The figure players see: the conservative estimate mu - 3 sigma, scaled to read like a
        familiar rating: a newcomer's 25 - 3 x 8.33 = 0 shows as 1000, and each point is 40."""
        return round(1000 + 40 * (self.mu - 3 * self.sigma))

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def as_json(self) -> dict[str, Any]:
        return {"track": self.track, "rating": self.shown, "provisional": self.provisional,
                "games": self.games, "wins": self.wins, "mu": round(self.mu, 3),
                "sigma": round(self.sigma, 3)}


@dataclass
class Table:
    """Every rating, by (player, track)."""

    ratings: dict[tuple[int | str, str], Rating] = field(default_factory=dict)

    def of(self, player: int | str, track: str) -> Rating:
        return self.ratings.setdefault((player, track), Rating(player, track))

    def of_user(self, user_id: int) -> list[Rating]:
        return [self.ratings[(user_id, t)] for t in TRACKS if (user_id, t) in self.ratings]

    def board(self, track: str) -> list[Rating]:
        """The track's people, best first (ties: more games, then the lower id)."""
        people = [r for (player, t), r in self.ratings.items() if t == track and player != RHOM]
        return sorted(people, key=lambda r: (-r.shown, -r.games, r.player))


_CACHE: dict[str, Any] = {"key": None, "table": None}
_LOCK = threading.Lock()


def _rated(finished: Any) -> Any:
    return finished.where(Game.status == "finished", Game.public.is_(True))  # type: ignore[attr-defined]


def ratings(session: Session | Connection) -> Table:
    """The ratings now: folded again only when a game ended since the last fold."""
    connection = sql(session)
    key = (str(connection.engine.url),
           *connection.execute(_rated(select(func.count(), func.max(Game.finished_at),
                                             func.min(Game.id), func.max(Game.id)))).one())
    with _LOCK:
        if _CACHE["key"] == key and _CACHE["table"] is not None:
            return _CACHE["table"]
    table = fold(session)
    with _LOCK:
        _CACHE["key"], _CACHE["table"] = key, table
    return table


def fold(session: Session | Connection) -> Table:
    """Every rated game, in the order they ended, folded into the ratings (the outcome of a
    game that ended before outcomes were kept, from its log)."""
    connection = sql(session)
    games = connection.execute(_rated(select(Game.id, Game.seats, Game.rhom, Game.outcome))
                               .order_by(Game.finished_at, Game.id)).all()
    derived = outcomes_of(session, [g.id for g in games if g.outcome is None])
    seats: dict[str, list[Any]] = {}
    for row in connection.execute(select(Seat.game_id, Seat.seat, Seat.user_id, Seat.kind).where(
            Seat.game_id.in_([g.id for g in games]))).all() if games else []:  # type: ignore[attr-defined]
        seats.setdefault(row.game_id, []).append(row)
    table = Table()
    for game in games:
        outcome = game.outcome or derived.get(game.id)
        if outcome is not None:
            rate_game(table, outcome, game, seats.get(game.id, []))
    return table


def rate_game(table: Table, outcome: dict[str, Any], game: Any, seats: list[Any]) -> None:
    """Fold one finished game into the ratings (nothing for a game with a bot seat)."""
    if any(s.kind == "bot" for s in seats):
        return
    ranks = {score["seat"]: score["rank"] for score in outcome.get("seats", [])}
    people = [s for s in seats if s.kind == "human" and s.seat in ranks]
    if game.seats == 1 and game.rhom:
        rhom = next((s for s in seats if s.kind == "rhom"), None)
        if len(people) != 1 or rhom is None or rhom.seat not in ranks:
            return
        players = [(people[0].user_id, ranks[people[0].seat]), (RHOM, ranks[rhom.seat])]
        track = "solo"
    else:
        if len(people) < 2:
            return
        players = [(p.user_id, ranks[p.seat]) for p in people]
        track = str(len(people))
    current = [table.of(player, track) for player, _ in players]
    rated = MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in current],
                       ranks=[rank for _, rank in players])
    best = min(rank for _, rank in players)
    for rating, [new], (_player, rank) in zip(current, rated, players, strict=True):
        rating.mu, rating.sigma = new.mu, new.sigma
        rating.games += 1
        rating.wins += rank == best


def track_of(game: dict[str, Any]) -> str:
    """The track a game (as `lobby.game_json` shows it) is rated on."""
    return "solo" if game["seats"] == 1 else str(game["seats"])


def rated_game(session, game: dict[str, Any]) -> dict[str, Any]:
    """One game as `with_ratings` shows it: every answer that is a game reads as GET does."""
    [shown] = with_ratings(ratings(session), [game])
    return shown


def with_ratings(table: Table, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The games with each person's rating on the game's track (a newcomer's when unrated), and
    the Rhom's on the solo track, where it is rated too."""
    shown = []
    for game in games:
        track = track_of(game)
        people = []
        for player in game["players"]:
            if player["kind"] == "human" and player["user_id"] is not None:
                rated: int | str | None = player["user_id"]
            else:
                rated = RHOM if player["kind"] == "rhom" and track == "solo" else None
            if rated is not None:
                rating = table.ratings.get((rated, track)) or Rating(rated, track)
                player = {**player, "rating": rating.shown,
                          "rating_provisional": rating.provisional}
            people.append(player)
        shown.append({**game, "players": people})
    return shown
