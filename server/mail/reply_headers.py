"""The headers that let a player answer an email: a signed Reply-To, List-Unsubscribe (a
signed mailto and an RFC 8058 one-click link) and In-Reply-To for an answer to their mail.

Computed when the mail is sent (server.mail.outbox), from the recipient's current API token: a
token rotated since the notice was queued gives the new addresses.
"""

from __future__ import annotations

from sqlmodel import select

from server.mail.reply_addresses import ReplyBase, join_address, play_address, prefs_token
from server.storage.models import Invitation, User

UNSUBSCRIBE_PATH = "/api/v1/mail/unsubscribe/"


def reply_headers(session, rows, settings) -> dict[int, dict[str, str]]:
    """Extra headers by outbox row id, for `rows` (claimed outbox rows)."""
    base = ReplyBase.parse(settings.reply_address)
    secret = settings.secret_key
    user_ids = {row.user_id for row in rows if row.user_id is not None}
    users = {
        user_id: token_hash
        for user_id, token_hash in session.exec(
            select(User.id, User.token_hash).where(User.id.in_(user_ids))
        ).all()
    } if user_ids else {}
    headers: dict[int, dict[str, str]] = {}
    for row in rows:
        extra: dict[str, str] = {}
        token_hash = users.get(row.user_id)
        if row.kind == "invitation" and row.game_id:
            invitation = session.exec(
                select(Invitation)
                .where(Invitation.game_id == row.game_id, Invitation.email == row.to_email)
                .order_by(Invitation.id.desc())  # type: ignore[union-attr]
            ).first()
            if invitation is not None:
                extra["Reply-To"] = join_address(base, secret, invitation.id, row.game_id,
                                                 row.to_email)
        elif token_hash is not None:
            if row.game_id and row.version is not None:
                extra["Reply-To"] = play_address(base, secret, row.user_id, token_hash,
                                                 row.game_id, row.version)
            else:
                extra["Reply-To"] = base.bare
            prefs = prefs_token(secret, row.user_id, token_hash)
            extra["List-Unsubscribe"] = (
                f"<mailto:{base.address(prefs)}?subject=unsubscribe>, "
                f"<{settings.base_url}{UNSUBSCRIBE_PATH}{prefs}>"
            )
            extra["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        in_reply_to = (row.extra or {}).get("in_reply_to")
        if in_reply_to:
            extra["In-Reply-To"] = in_reply_to
            # The thread's ids the reply carried, then the reply's own (RFC 5322 3.6.4).
            extra["References"] = (row.extra or {}).get("references") or in_reply_to
        headers[row.id] = extra
    return headers
