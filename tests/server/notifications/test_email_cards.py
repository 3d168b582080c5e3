"""Card help in the emails (issue 21): a player's "your turn" mail gives the text of their own
objectives and items (never another player's), the category of every relic in sight and each
player's tiles per gem, in the text part and, beside the board picture, in the HTML part."""

from datetime import UTC, datetime

import engine
from engine.data import OBJECTIVES, RELICS
from engine.text.players import tiles_per_gem
from engine.text.wording import objective_text
from server import create_app
from server.scheduler.tick import Ticker
from tests.server.scheduler.helpers import Table


def test_the_turn_mail_gives_my_objectives_text_relic_categories_and_tiles_per_gem(
    db_url, smtp_server
):
    handler, port = smtp_server
    app = create_app({"DATABASE_URL": db_url,
                      "SMTP_URL": f"smtp://127.0.0.1:{port}?security=none"})
    table = Table(app)
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob])
    ticker = Ticker(app, lambda: datetime.now(UTC), name="test")
    ticker.tick()
    table.play_turn(game_id)
    handler.received.clear()
    ticker.tick()
    ticker.tick()

    [mail] = handler.received
    state = table.state(game_id)
    seat = engine.current_player(state)
    me = state.players[seat]
    other = state.players[1 - seat]
    text = mail.message.get_body(("plain",)).get_content().replace("\r\n", "\n")
    html = mail.message.get_body(("html",)).get_content()
    flat = " ".join(text.split())
    for objective in me.objectives:
        assert " ".join(objective_text(objective, state.rules_version).split()) in flat
        assert f"Objective: {OBJECTIVES[objective].name} (" in html
    for objective in other.objectives:
        if objective not in me.objectives:
            assert OBJECTIVES[objective].name not in text and OBJECTIVES[objective].name not in html
    for relic_id in state.relic_row:
        relic = RELICS[relic_id]
        assert f"{relic.name} ({relic.category}," in flat
    # The player who moved has one tile: the count by gem is there, by their name.
    mover = table.player_at(game_id, other.seat).name
    assert f"{mover} tiles {tiles_per_gem(list(other.tiles))}" in flat
    # Beside the picture (the hex board alone): the relic row with each relic's category, and
    # my own panel first, with my objectives' text.
    for relic_id in state.relic_row:
        relic = RELICS[relic_id]
        assert f"<li>{relic.name}: " in html and f"pts, {relic.category}</li>" in html
    assert html.index("(you)</strong>") < html.index("Gem market")
