"""What the game page shows: the board at a turn, as the viewer may see it, with the players by
name and colour, the turn, the recent turns in sentences, the replay's turns, the score and the
controls of the legal commands placed where they apply (server/web/commands.py)."""

from __future__ import annotations

from typing import Any

from flask import current_app, render_template
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup
from sqlmodel import select

import engine
from engine.text.narrate import narrate
from server import i18n
from server.games import lobby, service
from server.games.legality import offered
from server.games.views import VIEWS
from server.memo import Memo
from server.picture.svg.symbols import GEM_COLOURS, GEM_LETTERS, player_colour
from server.plans import store as plans
from server.storage.models import Event, Game, User, utcnow
from server.web.board import board_controls, web_board_svg
from server.web.commands import placed
from server.web.language import page_words
from server.web.panels import panels
from server.web.talk import talk_context

BOARDS = Memo(256)  # (game, version, names, language) -> the board's SVG
STORIES = Memo(512)  # (game, viewer's seat, version) -> the recent turns
MARKS = Memo(256)  # (game, version, names) -> the turns of the replay's list
PANELS = Memo(512)  # (game, version, seat, names, language, what is live) -> the panels' HTML
REPLAYS = Memo(256)  # (game, version, names, the turn shown) -> the replay's list as HTML

RECENT_EVENTS = 60  # read to tell the last RECENT_TURNS turns
RECENT_TURNS = 4


def seat_names(session, game: Game, user: User | None) -> tuple[dict, dict[int, str]]:
    """The game as the API shows it to `user`, and each seat's name."""
    info = lobby.game_json(session, game, user)
    rhom = page_words()._("the Rhom")
    names = {p["seat"]: (rhom if p["kind"] == "rhom" else p["name"])
             for p in info["players"] if p["seat"] is not None}
    return info, names


def stories(session, game: Game, seat: int | None, names: dict[int, str], after: int,
            upto: int, turns: int | None = None) -> list:
    """The events after `after` up to `upto` told in sentences as `seat` may know them
    (engine/text/narrate.py), one story per turn; the last `turns` of them when given."""

    rows = session.exec(
        select(Event.payload)
        .where(Event.game_id == game.id, Event.seq > after, Event.seq <= upto)
        .order_by(Event.seq)  # type: ignore[arg-type]
    ).all()
    told = narrate([engine.redact_event(payload, seat) for payload in rows], names, seat,
                   translations=i18n.engine_catalog(str(get_locale())))
    return told[-turns:] if turns else told


def turn_marks(session, game: Game, names: dict[int, str]) -> list[dict]:
    """The game's turns for the replay: each turn's number, who played it, and the event it
    ends on (the one before the next turn starts, or the last one)."""
    rows = session.exec(
        select(Event.seq, Event.payload)
        .where(Event.game_id == game.id, Event.type == "turn_started")
        .order_by(Event.seq)  # type: ignore[arg-type]
    ).all()
    marks = []
    for index, (seq, payload) in enumerate(rows):
        end = rows[index + 1][0] - 1 if index + 1 < len(rows) else game.version
        seat = payload.get("seat")
        who = names.get(seat) or page_words()._("the Rhom")
        if payload.get("kind") == "removal":
            who = _("%(player)s (removal)", player=names.get(seat) or _("a player"))
        marks.append({"index": index + 1, "number": payload.get("number"), "who": who,
                      "start": seq, "end": end})
    return marks


def _shown_turn(marks: list[dict], at: int) -> int | None:
    for mark in marks:
        if mark["start"] <= at <= mark["end"]:
            return mark["index"]
    return None


def page_context(session, game: Game, user: User | None, seat: int | None,
                 at: int | None = None, turn: int | None = None) -> dict[str, Any]:
    """Everything the template needs. `at`: the replay's event number; `turn`: the replay's
    turn (its place in the list of turns); neither: now."""

    info, names = seat_names(session, game, user)
    colours = {s: player_colour(s) for s in names}
    context: dict[str, Any] = {"game": game, "info": info, "names": names, "seat": seat,
                               "colours": colours, "user": user, "svg": None, "at": None,
                               "controls": {}, "hexes": [], "talk": talk_context(session, game,
                                                                                   user),
                               "gem_colours": GEM_COLOURS, "gem_letters": GEM_LETTERS,
                               "turns": [], "replay_index": None}
    # The viewer's own plan only (server/plans/): nobody else's page shows it.
    context["plan_form"] = (user is not None and seat is not None and game.status == "active"
                            and game.current_seat != seat)
    context["plan"] = plans.get(session, game.id, seat) if context["plan_form"] else None
    if game.version == 0:
        return context
    now = game.version
    # The page's language is part of every key: the same names read in two languages.
    lang = str(get_locale())
    named = (tuple(sorted(names.items())), lang)
    marks = MARKS.get((game.id, now, named), lambda: turn_marks(session, game, names))
    if turn is not None and marks:
        at = marks[min(turn, len(marks)) - 1]["end"]
    shown = now if at is None else at
    state = service.load_state(session, game, shown)
    # The view GET /api/v1/games/{id}/view gives this viewer, from the same cache.
    view = VIEWS.view(game.id, shown, state, seat, tile_sort=getattr(user, "tile_sort", None),
                      relic_sort=getattr(user, "relic_sort", None))
    number = view["turn"]["number"] if view["turn"] else None
    replay_index = _shown_turn(marks, shown)
    title = (_("Gems of Iridescia, game %(game)s, turn %(turn)s", game=game.id, turn=number)
             if number else _("Gems of Iridescia, game %(game)s", game=game.id))
    words = page_words()
    controls: dict[str, list] = {}
    if not view["over"] and shown == now and seat is not None and game.status == "active":
        # As GET /legal offers them: never a removal the server is about to play.
        commands, _decides_at = offered(game, state, seat, utcnow())
        controls = placed(commands, names, words)
    context.update(
        # The hexes and explorers are the same for every viewer (nothing hidden is drawn).
        svg=BOARDS.get((game.id, shown, named),
                       lambda: web_board_svg(view, names, title, words)),
        hexes=board_controls(controls),
        controls=controls,
        view=view,
        turn_number=number,
        at=shown,
        latest=now,
        replaying=shown != now,
        turns=marks,
        replay_index=replay_index,
        # The same for every viewer of this turn: drawn once (a finished game lists them all).
        replay=REPLAYS.get((game.id, now, named, replay_index, shown != now), lambda: Markup(
            render_template("game_replay.html", game=game, turns=marks,
                            replay_index=replay_index, replaying=shown != now))),
        recent=STORIES.get(
            (game.id, seat, shown, named),
            lambda: stories(session, game, seat, names, max(0, shown - RECENT_EVENTS), shown,
                            RECENT_TURNS)),
        over=view["over"],
        outcome=view["outcome"],
        panels=panels(view, names, seat, controls, words),
    )
    context["panels_html"] = None if controls else _panels_html(context)
    return context


def _panels_html(context: dict[str, Any]) -> Markup:
    """The panels without controls (a spectator's, a finished game's, a player's while another
    plays): the same for every reload of this version, drawn once. Keyed by whatever they show
    that is not the version's: who is away, absent or asks to pause."""
    info = context["info"]
    live = (info.get("paused"), tuple((p.get("seat"), p.get("absent"), p.get("away_until"),
                                       p.get("wants_pause")) for p in info["players"]))
    game = context["game"]
    user = context["user"]
    sorts = (getattr(user, "tile_sort", None), getattr(user, "relic_sort", None))
    key = (game.id, context["at"], context["seat"], tuple(sorted(context["names"].items())),
           str(get_locale()), sorts, live)
    return PANELS.get(key, lambda: Markup(render_template(
        "game_panels.html", game=game, info=info, panels=context["panels"], controls={},
        recent=context["recent"], gem_letters=context["gem_letters"])))


def lobby_context(session, game: Game, user: User | None, seat) -> dict:
    info = lobby.game_json(session, game, user)
    base = current_app.config["BASE_URL"].rstrip("/")
    return {"game": game, "info": info, "user": user, "member": seat is not None,
            "join_link": f"{base}/join/{game.join_code}" if seat is not None and game.join_code
            else None,
            "full": len(lobby.players(session, game)) >= game.seats}
