"""Seeds no one can choose (engine/seeds.py): the word each player adds when they sit down, and
the dice seed mixed from the server's seed and those words when the game starts."""

from __future__ import annotations

from typing import Any

from engine import seeds
from server.games.seat_kinds import player_id
from server.http.errors import fail
from server.i18n import N_, Said
from server.storage.models import Game, Seat

# The rule new games are made under; a game keeps its own (a null rule: the server's seed alone).
SEED_RULE = seeds.MIXED


def contribution_problem(word: str | None) -> Said | None:
    """What is wrong with the player's word for the dice; None when it is fine or absent."""
    if word is None or not word.strip() or seeds.is_contribution(word.strip()):
        return None
    # seeds.CONTRIBUTION_HINT's words, in the catalog.
    return Said(N_("your word for the dice {word!r} is not one word of up to 64 letters, digits, "
                   "'-' or '_': leave it out or send one such word"), word=word.strip()[:70])


def checked_contribution(word: str | None) -> str | None:
    """The player's word, stripped; 422 unless it is one plain word. None when none was given."""
    problem = contribution_problem(word)
    if problem is not None:
        fail(422, problem)
    return word.strip() or None if word is not None else None


def dice_seed(game: Any) -> str:
    """The seed the game's dice are drawn from: the mixed one once the game started under the
    mixed rule, the server's seed otherwise (a game `Game` or a `GameRow`)."""
    return getattr(game, "play_seed", None) or game.seed


def mix_words(game: Game, seated: list[Seat]) -> None:
    """At the start, before the first die: the dice seed of a game of the mixed rule, from the
    words of ``seated`` in the order of the start command's player ids."""
    if game.seed_rule in (None, seeds.SERVER_ONLY):
        return
    words = [seat.seed_contribution or "" for seat in seated]
    game.play_seed = seeds.dice_seed(game.seed, words, game.seed_rule)


def contributions(members: list[Seat]) -> dict[str, str]:
    """The words by engine player id, as the export carries them ("" for a seat that gave none)."""
    return {player_id(m): m.seed_contribution or "" for m in members if m.kind in ("human", "bot")}
