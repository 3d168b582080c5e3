"""Outbound webhooks: a game's turn changes and its end POSTed as signed JSON to a URL a player
chose (docs/webhooks.md).

- `addresses`: which URLs may be POSTed to (the SSRF guard), at registration and at delivery;
- `registry`: a player's webhook on a game, set, read or removed (`routes`, the game creation);
- `queue`: a delivery queued in the transaction of the turn change, like a mail notice;
- `payload`: what a delivery says (only what a spectator may know), as JSON, Discord or Slack;
- `signing`: the HMAC signature and timestamp headers, and how to verify them;
- `delivery`: the scheduler's `webhooks` job, the outbox's leases, backoff and parking;
- `http`: one POST to the address that was checked, without redirects, with a timeout.
"""
