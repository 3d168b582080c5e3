"""What goes beside the board's picture in an HTML mail, as text: whose turn, the gem market, the
relic row, the item market, the royalty tokens and each player's panel (the SVG's side panels,
server/picture/svg/panels.py, in words). The picture shows the hex board only, the same for
every player; this part is the recipient's own view, so their objectives and items are theirs
alone to read. Written in the recipient's language: the sentences from the server's catalog,
the cards' names and texts from the engine's.
"""

from __future__ import annotations

from engine.data import GEMS, ITEMS, RELICS, ROYALTY_POINTS
from engine.text.wording import Words, objective_text, relic_category
from engine.text.wording import item_text as card_text
from server import i18n
from server.i18n import N_
from server.picture.svg import describe
from server.picture.svg.symbols import gems_needed, hold_words, player_colour

PENDING_WORDS = {"choose_gem": N_("choose the rainbow tile's gem"),
                 "give_gem": N_("give away gems"), "discard_objective": N_("discard an objective")}
TURN_WORDS = {"removal": N_("{who}'s removal turn {number}, {step} step"),
              "rhom": N_("{who}'s turn (the Rhom) {number}, {step} step")}


class _Words:
    """The recipient's words: `say` the server's sentences; `cards` (engine.text.wording.Words)
    names the cards, gems and categories by the engine's catalog; `listed` parts by the
    language's comma."""

    def __init__(self, language: str | None) -> None:
        self.language = language
        self.cards = Words(i18n.engine_catalog(language))

    def say(self, message: str, **values) -> str:
        return i18n.translate(self.language, message, **values)

    def listed(self, items) -> str:  # noqa: ANN001
        return self.cards._(", ").join(items)

    def hold(self, hold: dict[str, int]) -> str:
        words = hold_words(hold)
        return self.say(N_("empty")) if words == "empty" else words


def _turn(view: dict, names: dict[int, str], words: _Words) -> str:
    turn = view["turn"]
    if view["over"]:
        return words.say(N_("The game is over."))
    if turn is None:
        return ""
    who = names.get(turn["seat"], "?")
    text = words.say(TURN_WORDS.get(turn["kind"], N_("{who}'s turn {number}, {step} step")),
                     who=who, number=turn["number"], step=words.cards._(turn["phase"]))
    pending = view["pending"]
    if pending and pending["kind"] != "roll":
        what = PENDING_WORDS.get(pending["kind"])
        text = words.say(N_("{turn}; waiting for {who} to {what}"), turn=text, who=who,
                         what=words.say(what) if what else pending["kind"])
    return words.say(N_("{sentence}."), sentence=text)


def _player(player: dict, names: dict[int, str], viewer: int | None,
            rules_version: str | None, words: _Words) -> dict:
    seat = player["seat"]
    mine = seat == viewer
    say, cards = words.say, words.cards.translations
    relics = [relic_category(r, cards) for r in player["relics"]]
    relics += [say(N_("{relic} (reserved)"), relic=words.cards.name(r))
               for r in player["reserved_relics"]]
    lines = [
        say(N_("{points} points, {coins} coins, hold {hold}, stone dice {dice}"),
            points=player["points"], coins=player["coins"], hold=words.hold(player["hold"]),
            dice=player["stone_dice"]),
        say(N_("on {where}"), where=player["position"] or say(N_("the airship")))
        + (say(N_(", finished")) if player["finished"] else ""),
        say(N_("Relics: {relics}"), relics=words.listed(relics) or say(N_("none"))),
        say(N_("Royalty token: {token}"), token=words.cards.name(player["royalty_token"])
            if player["royalty_token"] else say(N_("none")))
        + (say(N_(", the Iridia Stone")) if player["iridia_stone"] else ""),
    ]
    if mine:
        lines += [say(N_("Item: {text}"), text=card_text(i, rules_version, cards))
                  for i in player["items"]]
    elif player["items"]:
        lines.append(say(N_("Items: {items}"),
                         items=words.listed(words.cards.name(i) for i in player["items"])))
    objectives = player.get("objectives")
    if objectives is not None:
        lines += [say(N_("Objective: {text}"), text=objective_text(o, rules_version, cards))
                  for o in objectives]
    elif player["kind"] != "rhom":
        lines.append(say(N_("Objectives: {count} secret"), count=player["objectives_held"]))
    name = names.get(seat, "?")
    return {"name": say(N_("{name} (you)"), name=name) if mine else name,
            "colour": player_colour(seat), "mine": mine, "lines": lines}


def board_sides(view: dict, names: dict[int, str], language: str | None = None) -> dict:
    """The panels as text: turn, market, relics, items, royalty, players (the recipient first)."""
    words = _Words(language)
    say = words.say
    market = view["market"]
    viewer = view["viewer"]
    players = sorted(view["players"], key=lambda p: (p["seat"] != viewer, p["seat"]))
    return {
        "turn": _turn(view, names, words),
        "market": [say(N_("{gem} {value} (supply {supply})"), gem=words.cards.gem(gem),
                       value=market["gem_values"][gem], supply=market["supply"][gem])
                   for gem in GEMS],
        "stone_dice": market["stone_dice"],
        "relics": [say(N_("{relic}: {gems}, {points} pts, {category}"), relic=words.cards.name(r),
                       gems=gems_needed(RELICS[r].requirement()), points=RELICS[r].points,
                       category=words.cards.category(RELICS[r].category))
                   for r in market["relics"]],
        "relic_deck": market["relic_deck"],
        "items": [say(N_("{item}: {cost} coins"), item=words.cards.name(i), cost=ITEMS[i].cost)
                  for i in market["items"]],
        "item_deck": market["item_deck"],
        "royalty": words.listed(say(N_("{token} ({points} pts)"), token=words.cards.name(t),
                                    points=ROYALTY_POINTS[t])
                                for t in market["royalty_tokens"]) or say(N_("none")),
        "players": [_player(p, names, viewer, view.get("rules_version"), words)
                    for p in players],
    }


def picture_words(view: dict, names: dict[int, str], language: str | None = None) -> str:
    """The picture's alt text: where everyone stands, in words."""
    return describe(view, names, i18n.catalog(language).gettext)
