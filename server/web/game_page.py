"""What the game page shows: the board at a version, as the viewer may see it, with the players,
the turn, the recent turns in sentences, the replay's bounds, the score and the legal forms."""

from __future__ import annotations

from typing import Any

from flask_babel import get_locale
from sqlmodel import select

import engine
from engine.text.narrate import narrate
from server import i18n
from server.games import lobby, service
from server.games.legality import offered
from server.picture.svg import board_svg
from server.plans import store as plans
from server.storage.models import Event, Game, User, utcnow
from server.web.commands import grouped
from server.web.talk import talk_context
from server.webhooks import registry

RECENT_EVENTS = 60  # read to tell the last RECENT_TURNS turns
RECENT_TURNS = 4


def seat_names(session, game: Game, user: User | None) -> tuple[dict, dict[int, str]]:
    """The game as the API shows it to `user`, and each seat's name."""
    info = lobby.game_json(session, game, user)
    names = {p["seat"]: ("the Rhom" if p["kind"] == "rhom" else p["name"])
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


def page_context(session, game: Game, user: User | None, seat: int | None,
                 at: int | None) -> dict[str, Any]:
    """Everything the template needs. `at`: the replay's event number (None: now)."""

    info, names = seat_names(session, game, user)
    context: dict[str, Any] = {"game": game, "info": info, "names": names, "seat": seat,
                               "user": user, "svg": None, "choices": [], "at": None,
                               "talk": talk_context(session, game, user),
                               "webhook": None, "webhook_form": False}
    if user is not None and seat is not None and game.status not in registry.OVER:
        context["webhook"] = registry.of(session, game.id, user.id)
        context["webhook_form"] = True
    # The viewer's own plan only (server/plans/): nobody else's page shows it.
    context["plan_form"] = (user is not None and seat is not None and game.status == "active"
                            and game.current_seat != seat)
    context["plan"] = plans.get(session, game.id, seat) if context["plan_form"] else None
    if game.version == 0:
        return context
    now = game.version
    shown = now if at is None else at
    state = service.load_state(session, game, shown)
    view = engine.view(state, seat, tile_sort=getattr(user, "tile_sort", None),
                       relic_sort=getattr(user, "relic_sort", None))
    title = f"Gems of Iridescia, game {game.id}, after event {shown} of {now}"
    context.update(
        svg=board_svg(view, names, title),
        view=view,
        at=shown,
        latest=now,
        replaying=shown != now,
        recent=stories(session, game, seat, names, max(0, shown - RECENT_EVENTS), shown,
                       RECENT_TURNS),
        over=view["over"],
        outcome=view["outcome"],
    )
    if not view["over"] and shown == now and seat is not None and game.status == "active":
        # As GET /legal offers them: never a removal the server is about to play.
        commands, _decides_at = offered(game, state, seat, utcnow())
        context["choices"] = grouped(commands, game.id, view["turn"]["undo_steps"])
    return context
