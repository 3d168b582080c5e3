"""Who may be mailed what: until the owner of an address has proved it is theirs, it is sent
only the mail that lets them prove it.

- The account mails (`ACCOUNT_KINDS`: the confirmation link, "someone tried to register your
  address" with a link to a token, the token-recovery link) go to any account's address: each
  carries a signed link whose use proves the address, and each is bounded per address
  (server/users/account_mail.py). A confirmation mail to an address already confirmed is not
  sent again.
- An invitation goes to an address no account has (it is the first mail that address gets from
  us, and server/games/invitation_limits.py keeps it from getting another soon) or to a
  confirmed account's address.
- Everything else (turn mails, reminders, game notices, replies) goes only to the address of a
  confirmed account whose mail does not bounce (server/inbound/bounces.py); confirming a
  bouncing address again clears the mark.
- Nothing at all goes to the address of an account an operator disabled, whoever queued it.

The rule is applied when a message is about to be sent, so it holds for every kind of mail,
whoever queued it. A message it stops is ``withheld``: kept with the reason, never sent.
"""

from __future__ import annotations

from sqlmodel import Session, select

from server.storage.models import Outbox, User
from server.users.account_mail import ACCOUNT_KINDS, VERIFY_EMAIL

INVITATION = "invitation"


def withheld(session: Session, rows: list[Outbox]) -> dict[int, str]:
    """The rows that must not be sent, by id, with the reason (one query for the batch)."""
    addresses = {row.to_email.lower() for row in rows}
    if not addresses:
        return {}
    confirmed, disabled, bouncing = {}, set(), set()
    for email, verified_at, disabled_at, bouncing_at in session.exec(
            select(User.email, User.verified_at, User.disabled_at, User.email_bouncing_at)
            .where(User.email.in_(addresses))):  # type: ignore[attr-defined]
        # A bouncing address counts as unconfirmed: it gets the confirmation mail (whose link
        # clears the mark, server/users/verification.py) and nothing else.
        confirmed[email.lower()] = verified_at is not None and bouncing_at is None
        if disabled_at is not None:
            disabled.add(email.lower())
        if bouncing_at is not None:
            bouncing.add(email.lower())
    reasons: dict[int, str] = {}
    for row in rows:
        address = row.to_email.lower()
        has_account, is_confirmed = address in confirmed, confirmed.get(address, False)
        if address in disabled:
            reasons[row.id] = "not sent: the account was disabled by an operator"
        elif row.kind == VERIFY_EMAIL and is_confirmed:
            reasons[row.id] = f"not sent: {row.to_email} is already confirmed"
        elif row.kind in ACCOUNT_KINDS or is_confirmed:
            continue
        elif address in bouncing:
            reasons[row.id] = (f"not sent: mail to {row.to_email} bounces; its owner confirms "
                               "it again to get game mail")
        elif row.kind == INVITATION and not has_account:
            continue
        else:
            reasons[row.id] = (f"not sent: {row.to_email} has not been confirmed by its owner "
                               "(an unconfirmed address gets only the confirmation mail)")
    return reasons
