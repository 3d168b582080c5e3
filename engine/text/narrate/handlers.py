"""One handler per event type: each says only what the (redacted) event says.

A mixin of the Narrator (narrator.py), whose sentence-building methods (`act`, `gain`, `then`,
`who`, `whom`, `seat_name`) and attributes (`names`, `seat`, `w`, `_`) they use."""

from __future__ import annotations

from engine.data import RELICS, RHOM_CARDS, TILES


class EventHandlers:
    def on_game_started(self, e):
        _, w = self._, self.w
        for i, player_id in enumerate(e["seats"]):
            if player_id == "rhom":
                self.names.setdefault(i, _("the Rhom"))
        seats = [self.seat_name(i) for i in range(len(e["seats"]))]
        self.then(_("the game began; the order of play is {seats}").format(seats=w.and_list(seats)))
        if self.seat is not None and self.seat < len(e["objectives"]):
            mine = [o for o in e["objectives"][self.seat] if o]
            if mine:
                self.act(self.seat, _("were dealt the secret objectives {objectives}").format(
                    objectives=w.and_list([w.name(o) for o in mine])))

    def on_tiles_revealed(self, e):
        self.act(e["seat"], self._("revealed {hexes}").format(hexes=self.w.and_list(list(e['hexes']))))

    def on_explorer_moved(self, e):
        _ = self._
        verbs = {"relocate": _("relocated to {hex}"),
                 "catapult": _("jumped with the Clever Catapult to {hex}")}
        self.act(e["seat"], verbs.get(e["via"], _("moved to {hex}")).format(hex=e["hex"]),
                 joins=True)

    def on_explorers_swapped(self, e):
        self.act(e["seat"], self._("swapped places with {whom}").format(whom=self.who(e["target"])),
                 joins=True)

    def on_tile_discarded(self, e):
        self.act(e["seat"], self._("discarded a {tile} tile from the victory pile").format(
            tile=self.w.name(e["tile"])), joins=True)

    def on_gem_chosen(self, e):
        self.act(e["seat"], self._("chose {gem} for the tile").format(gem=self.w.gem(e["gem"])),
                 joins=True)

    def on_gems_gained(self, e):
        self.gain(e["seat"], self.w.gems(e["gem"], e["count"]))

    def on_gems_returned(self, e):
        if e["reason"] == "cauldron":
            self.act(e["seat"], self._("traded in {gems}").format(gems=self.w.gem_list(e["gems"])),
                     joins=True)
        else:
            self.gain(e["seat"], self._("{gems} returned (no room)").format(
                gems=self.w.gem_list(e["gems"])))

    def on_gem_given(self, e):
        self.act(e["seat"], self._("gave {gem} to {whom} (hold over 7)").format(
            gem=self.w.gems(e["gem"], 1), whom=self.whom(e["to"])))

    def on_coins_gained(self, e):
        self.gain(e["seat"], self.w.coins(e["amount"]))

    def on_coins_spent(self, e):
        if e["reason"] == "mining":
            self.act(e["seat"], self._("paid {coins} to mine").format(coins=self.w.coins(e["amount"])))
        else:
            self.act(e["seat"], self._("paid {coins}").format(coins=self.w.coins(e["amount"])))

    def on_points_scored(self, e):
        self.gain(e["seat"], self.w.points(e["points"]))

    def on_stone_die_taken(self, e):
        self.gain(e["seat"], self.w.stone_dice(1))

    def on_stone_dice_activated(self, e):
        self.act(e["seat"], self._("activated {dice}").format(dice=self.w.stone_dice(e["count"])),
                 joins=True)

    def on_stone_dice_returned(self, e):
        self.act(e["seat"], self._("returned {dice}").format(dice=self.w.stone_dice(e["count"])))

    def on_iridia_stone_taken(self, e):
        self.gain(e["seat"], self._("the Iridia Stone"))

    def on_objective_discarded(self, e):
        if e.get("objective"):
            self.act(e["seat"], self._("discarded the objective {objective}").format(
                objective=self.w.name(e["objective"])))
        else:
            self.act(e["seat"], self._("discarded a secret objective"))

    def on_dice_rolled(self, e):
        _, w = self._, self.w
        values = w.numbers(e["dice"])
        if e.get("stone"):
            values = _("{values} (stone dice: {stone})").format(
                values=values, stone=_(", ").join(map(str, e["stone"])))
        if e["kind"] == "wishing_well":
            clause = _("rolled {values} at the Wishing Well").format(values=values)
        else:
            clause = _("rolled {values}").format(values=values)
        self.act(e["seat"], clause, joins=True)

    def on_die_modified(self, e):
        self.act(e["seat"], self._("changed {die} to {value} with {item}").format(
            die=self.w.die(e["die"]), value=e["value"], item=self.w.the(e["item"])))

    def on_dice_rerolled(self, e):
        self.act(e["seat"], self._("re-rolled {dice}: {values}").format(
            dice=self.w.dice(len(e["indices"])), values=self.w.numbers(e["values"])))

    def on_market_dice_rolled(self, e):
        values = self._(", ").join(f"{self.w.gem(g)} {v}" for g, v in e["values"].items())
        self.act(e["seat"], self._("rolled the market dice: {values}").format(values=values))

    def on_roll_kept(self, e):
        n = e["successes"]
        if n:
            self.act(e["seat"], self._("kept the roll ({successes})").format(
                successes=self.w.successes(n)))
        else:
            self.act(e["seat"], self._("kept the roll (no success)"))

    def on_gems_sold(self, e):
        self.act(e["seat"], self._("sold {gems} for {coins}").format(
            gems=self.w.gems(e["gem"], e["count"]), coins=self.w.coins(e["coins"])))

    def on_item_bought(self, e):
        self.act(e["seat"], self._("bought {item} for {coins}").format(
            item=self.w.the(e["item"]), coins=self.w.coins(e["cost"])))

    def on_item_claimed(self, e):
        self.act(e["seat"], self._("took {item} from the market").format(item=self.w.the(e["item"])))

    def on_item_drawn(self, e):
        self.then(self._("{item} came into the item market").format(item=self.w.the(e["item"])))

    def on_market_refreshed(self, e):
        self.then(self._("the item market was dealt again: {items}").format(
            items=self.w.and_list([self.w.name(i) for i in e["market"]])))

    def on_item_deck_reshuffled(self, e):
        self.then(self._("the item discard pile was shuffled into a new deck"))

    def on_item_played(self, e):
        if e.get("hex"):
            self.act(e["seat"], self._("played {item} on {hex}").format(
                item=self.w.the(e["item"]), hex=e["hex"]))
        else:
            self.act(e["seat"], self._("played {item}").format(item=self.w.the(e["item"])))

    def on_relic_reserved(self, e):
        relic = self.w.the(e["relic"])
        if e["source"] == "deck":
            clause = self._("reserved {relic} from the relic deck").format(relic=relic)
        else:
            clause = self._("reserved {relic} from the relic row").format(relic=relic)
        self.act(e["seat"], clause, joins=True)

    def on_relic_restored(self, e):
        self.act(e["seat"], self._("restored {relic}").format(relic=self.w.the(e["relic"])))
        self.gain(e["seat"], self.w.points(e["points"]))

    def on_relic_drawn(self, e):
        relic = RELICS.get(e["relic"])
        if relic:
            self.then(self._("{relic} ({category}) came into the relic row").format(
                relic=self.w.the(e["relic"]), category=self.w.category(relic.category)))
        else:
            self.then(self._("{relic} came into the relic row").format(
                relic=self.w.the(e["relic"])))

    def on_tile_collected(self, e):
        tile = TILES.get(e["tile"])
        if tile:
            self.act(e["seat"], self._("collected the {tile} tile from {hex}").format(
                tile=self.w.name(e["tile"]), hex=e["hex"]))
        else:
            self.act(e["seat"], self._("collected the tile from {hex}").format(hex=e["hex"]))

    def on_market_adjusted(self, e):
        self.then(self._("{gem} is now worth {coins}").format(
            gem=self.w.gem(e["gem"]), coins=self.w.coins(e["value"])))

    def on_royalty_token_taken(self, e):
        if e.get("token"):
            self.act(e["seat"], self._("reached the Castle and took the {token}").format(
                token=self.w.name(e["token"])))
            self.gain(e["seat"], self.w.points(e["points"]))
        else:
            self.act(e["seat"], self._("reached the Castle (no royalty token was left)"))

    def on_tile_removed(self, e):
        self.act(e["seat"], self._("removed the tile at {hex}").format(hex=e["hex"]))

    def on_rhom_card_drawn(self, e):
        card = RHOM_CARDS.get(e["card"])
        if card:
            self.then(self._("the Rhom drew card {card} ({icon})").format(
                card=e["card"], icon=self._(card.icon)))
        else:
            self.then(self._("the Rhom drew card {card}").format(card=e["card"]))

    def on_relic_deck_shuffled(self, e):
        self.then(self._("the relic deck was shuffled"))  # its order stays hidden (R25)

    def on_rhom_deck_reshuffled(self, e):
        self.then(self._("the Rhom's cards were shuffled"))

    def on_rhom_die_rolled(self, e):
        _ = self._
        purposes = {"first_reveal": _("rolled {value} to choose its first tiles"),
                    "stone_die": _("rolled {value} for a stone die"),
                    "merchant": _("rolled {value} for the merchant"),
                    "barricade": _("rolled {value} for a barricade")}
        self.act(e["seat"], purposes.get(e["purpose"], _("rolled {value}")).format(
            value=e["value"]))

    def on_barricade_placed(self, e):
        self.then(self._("a barricade was placed on {hex}").format(hex=e["hex"]))

    def on_game_ended(self, e):
        self.then(self._("the game ended"))
