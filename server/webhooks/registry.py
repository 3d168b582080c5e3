"""Setting, reading and removing a player's webhook on a game (the API's, the creation's)."""

from __future__ import annotations

from datetime import datetime

from flask import current_app
from sqlalchemy import delete
from sqlmodel import Session, select

from server import i18n
from server.games.reactions import PlayerLeft
from server.http.errors import fail
from server.i18n import N_, Said
from server.storage.models import Game, Webhook, WebhookDelivery
from server.webhooks import addresses, signing

# A game in these states tells no more turns: no webhook can be set on it.
OVER = ("finished", "closed", "aborted")


def allow_private() -> bool:
    return bool(current_app.config.get("WEBHOOK_ALLOW_PRIVATE"))


def checked(url: str, format: str | None) -> tuple[str, str]:
    """(url, format) to store, or a 422 saying what is wrong with the URL (the SSRF guard)."""
    try:
        url, format = addresses.split_format(url, format)
        addresses.check(url, allow_private())
    except addresses.WebhookUrlError as error:
        fail(422, f"webhook URL refused: {error}", field="url")
    return url, format


def set_webhook(session: Session, game: Game, user_id: int, url: str, format: str,
                now: datetime) -> Webhook:
    """The player's webhook on the game, new or replaced, with a fresh secret (the caller shows
    it once). Deliveries still owed go to the new URL, signed with the new secret."""
    if game.status in OVER:
        fail(409, Said(N_("game {game} is {status}: it tells no more turns"), game=game.id,
                       status=i18n.status(game.status)))
    hook = of(session, game.id, user_id)
    if hook is None:
        hook = Webhook(game_id=game.id, user_id=user_id, url=url, format=format,
                       secret=signing.new_secret(), created_at=now)
    else:
        hook.url, hook.format, hook.secret, hook.created_at = url, format, signing.new_secret(), now
    session.add(hook)
    session.flush()
    return hook


def of(session: Session, game_id: str, user_id: int) -> Webhook | None:
    return session.exec(
        select(Webhook).where(Webhook.game_id == game_id, Webhook.user_id == user_id)).first()


def remove(session: Session, game_id: str, user_id: int) -> None:
    """Remove the player's webhook and what it was still owed (404 when there is none)."""
    if not forget(session, game_id, user_id):
        fail(404, f"you have no webhook on game {game_id}: set one with PUT")


def on_player_left(left: PlayerLeft) -> None:
    """The core's `PlayerLeft` (subscribed by server/reactions.py): a player who left an open
    game is told no more of it."""
    forget(left.session, left.game_id, left.user_id)


def forget(session: Session, game_id: str, user_id: int) -> bool:
    """Remove the player's webhook on the game, if any, and what it was still owed (a player
    leaving the game too). True when there was one."""
    hook = of(session, game_id, user_id)
    if hook is None:
        return False
    session.exec(delete(WebhookDelivery).where(WebhookDelivery.webhook_id == hook.id))
    session.delete(hook)
    session.flush()
    return True


def answer(hook: Webhook, secret: bool) -> dict:
    """The webhook as the API shows it to its owner; the secret only when just set."""
    shown = {"game_id": hook.game_id, "url": hook.url, "format": hook.format,
             "created_at": hook.created_at}
    if secret:
        shown["secret"] = hook.secret
    return shown
