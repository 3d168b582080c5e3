"""Every server setting in one place.

A setting comes from, in increasing priority: its default here, the environment variable
``IRIDESCIA_<NAME>``, and the mapping passed to ``create_app(config)`` (keys are the bare names,
e.g. ``{"DATABASE_URL": "sqlite://"}``). Each field's docstring is what the README's settings table
says about it.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

ENV_PREFIX = "IRIDESCIA_"
# The longest ``?wait`` of the event feed: the spec's maximum (a longer one is a 422), the
# default of LONG_POLL_MAX_SECONDS and the most it may be set to.
LONG_POLL_LIMIT_SECONDS = 30
# The ASGI front's mark (a key of the request's ASGI scope, which no client can set) on a long
# poll it refuses because its client holds LONG_POLL_MAX_PER_CLIENT open waits already: the
# feed answers it with a 429, so the refusal carries what every answer of the app carries
# (the error's shape, CORS, Vary).
OPEN_WAITS_REFUSED = "iridescia.open_waits_refused"


@dataclass(frozen=True)
class Settings:
    DATABASE_URL: str = "sqlite:///var/iridescia.db"
    """SQLAlchemy URL of the database. SQLite (the default, a file under ``var/`` relative to the
    working directory) or PostgreSQL with psycopg 3: ``postgresql+psycopg://user@host/dbname``."""

    BASE_URL: str = "http://127.0.0.1:5000"
    """The public address of the server, used in links inside emails."""

    SECRET_KEY: str = "dev-only-change-me"
    """Flask's secret key. Set a long random value in production."""

    MAGIC_LINK_HOURS: int = 72
    """How long the sign-in link in an email stays valid, in hours. Rotating the API token ends
    every link and page session at once."""

    RATE_LIMIT: int = 1200
    """Requests a minute per user (a token the server accepted; per client address for any
    other request); more answer 429 with Retry-After. Answers carry X-RateLimit-Limit,
    X-RateLimit-Remaining and X-RateLimit-Reset. 0 turns off every request limit (this one,
    AUTH_FAILURE_LIMIT and ACCOUNT_REQUESTS_PER_HOUR)."""

    RATE_LIMIT_STORAGE: str = "memory://"
    """Where the request counters live: ``memory://`` (each process counts alone) or Redis,
    ``redis://host:6379/0``, so that every process and host shares each budget. If Redis stops
    answering, each process counts in memory until it is back."""

    RATE_LIMIT_KEY_PREFIX: str = "iridescia"
    """Prefix of the counters' keys in RATE_LIMIT_STORAGE (servers sharing one Redis for
    different sites set different ones)."""

    AUTH_FAILURE_LIMIT: int = 20
    """Failed authentications (unknown or malformed tokens) a minute per client address; then
    429, and tokens the process has not accepted are refused before any query."""

    ACCOUNT_REQUESTS_PER_HOUR: int = 10
    """Registrations and token-recovery requests (each mails an address) an hour per client
    address; more answer 429."""

    MESSAGES_PER_GAME_MINUTE: int = 5
    """Table-talk messages one user may post in one game a minute (API, page and mail `say`
    together); more answer 429 saying when to try again."""

    MESSAGES_PER_GAME_HOUR: int = 60
    """Table-talk messages one user may post in one game an hour."""

    INVITATIONS_PER_USER_HOUR: int = 20
    """Invitations one user may send an hour (mailed or not); more answer 429 saying when they
    may invite again. 0: no limit."""

    INVITATIONS_PER_USER_DAY: int = 50
    """Invitations one user may send a day (mailed or not); more answer 429. 0: no limit."""

    INVITATIONS_PER_ADDRESS_HOUR: int = 2
    """Invitation mails one address may get an hour, whoever sends them; more answer 429.
    0: no limit."""

    INVITATIONS_PER_ADDRESS_DAY: int = 5
    """Invitation mails one address may get a day, whoever sends them; more answer 429.
    0: no limit."""

    INVITATION_QUIET_DAYS: int = 14
    """An address no confirmed account has is mailed one invitation, then no other for this
    many days (the invitation is recorded and its join code answered, not mailed). Invitations
    are mailed only for inviters whose own address is confirmed."""

    OPEN_GAMES_PER_USER: int = 10
    """Games one user may have created that have not started yet; more answer 422. 0: no
    limit."""

    VERIFICATION_LINK_HOURS: int = 48
    """How long the link that confirms an address works, in hours."""

    RECOVERY_LINK_HOURS: int = 2
    """How long a link to a new token works, in hours (it works once)."""

    ACCOUNT_MAILS_PER_ADDRESS_DAY: int = 5
    """Account mails (confirmation links, "someone tried to register your address", token
    recovery) one address may get a day, whoever asks for them."""

    TRUSTED_PROXIES: int = 0
    """How many reverse proxies in front of the server set X-Forwarded-For and
    X-Forwarded-Proto (werkzeug's ProxyFix): the client address of the rate limits is then the
    one they saw. 0 (the default) ignores those headers, which anybody can write."""

    CORS_ORIGINS: str = ""
    """Origins whose pages may call the API from a browser (CORS), comma-separated, e.g.
    ``https://app.example.org,http://localhost:3000``; ``*`` for any. Only /api/, with a bearer
    token (no cookies). Empty (the default): none, browsers allow same-origin calls only."""

    MAX_BODY_BYTES: int = 64 * 1024
    """Largest accepted request body in bytes; a larger one answers 413."""

    LONG_POLL_MAX_SECONDS: int = LONG_POLL_LIMIT_SECONDS
    """The longest the event feed waits (``events?wait=``): a longer wait, up to 30 (the API's
    documented maximum), waits this long; more than 30 is refused. It may be set lower, not
    higher."""

    LONG_POLL_MAX_PER_CLIENT: int = 4
    """Open long-polls (``events?wait=``) one client (its token, else its address) may hold in one
    server process; one more answers 429. A waiting long-poll costs no thread and no database
    connection, but memory and a socket."""

    WAKEUP_URL: str = ""
    """How processes wake each other when events or mail are committed (long-polls, the
    scheduler): a ``redis://`` URL for Redis pub/sub. Empty: the Redis of
    ``IRIDESCIA_RATE_LIMIT_STORAGE`` when that is one, else PostgreSQL's LISTEN/NOTIFY on
    PostgreSQL, else (SQLite) a watcher of the database file in each process."""

    STATE_CACHE_SIZE: int = 256
    """How many derived game states (per game and version) the in-process cache keeps."""

    SNAPSHOT_EVERY: int = 50
    """Store a state snapshot every this many events (0: never). Snapshots are only a cache."""

    SQLITE_BUSY_TIMEOUT_MS: int = 5000
    """How long a SQLite connection waits for a lock held by another writer, in milliseconds."""

    SCHEDULER_STALE_SECONDS: int = 300
    """The health endpoint reports the scheduler as stale when its last tick is older than this."""

    SCHEDULER_BUDGET_SECONDS: float = 1.0
    """How long one scheduler tick may spend on due game work (automatic turns, reminders,
    warnings); what is left stays due and the next tick goes on with it."""

    VACATION_DAYS_PER_YEAR: int = 21
    """Days a player may be away on vacation in a calendar year (UTC dates; each day touched
    counts, today included): their turns wait, no reminders, no automatic turns. 0: no
    vacations."""

    REPLY_ADDRESS: str = "play@localhost"
    """The address players reply to. Every email's Reply-To is a signed per-recipient form of it,
    ``play+TOKEN@domain``; mail to the bare address lists the sender's games (or ``new solo``)."""

    INBOUND_SMTP: str = "127.0.0.1:2525"
    """Where ``serve`` listens for incoming mail (an embedded SMTP receiver), ``host:port``;
    ``off`` disables it."""

    INBOUND_TLS_CERT: str = ""
    """The embedded SMTP receiver's certificate for STARTTLS, a PEM file (with
    ``IRIDESCIA_INBOUND_TLS_KEY``); empty: a self-signed one made at the first start under
    ``var/inbound-tls/``."""

    INBOUND_TLS_KEY: str = ""
    """The private key of ``IRIDESCIA_INBOUND_TLS_CERT``, a PEM file."""

    IMAP_URL: str = ""
    """A mailbox the scheduler polls for replies, ``imaps://user:pass@host/INBOX`` (``imap://``
    for plain or STARTTLS); empty: no polling."""

    INBOUND_REQUIRE_AUTH: str = ""
    """``dkim``, ``spf`` or ``none``: what the Authentication-Results header of your own mail
    server (``IRIDESCIA_INBOUND_AUTHSERV_ID``) must show passed before an incoming mail is acted
    on. Empty (the default): ``dkim`` when an authserv-id is set, else ``none``."""

    INBOUND_AUTHSERV_ID: str = ""
    """The authserv-id your mail server (the relay in front of this one) writes first in its
    Authentication-Results header, e.g. ``mx.example.org``; only headers with this id are read
    (any other was written by the sender). Setting it makes ``dkim`` the default."""

    MAX_INBOUND_BYTES: int = 1024 * 1024
    """Largest incoming mail acted on, in bytes; a larger one is refused."""

    INBOUND_RATE_LIMIT: int = 60
    """Incoming mails acted on per sender per hour (only mail that passed authentication
    counts); more are recorded and ignored. 0: no limit."""

    INBOUND_KEEP_DAYS: int = 90
    """How long the record of each incoming mail (``iridescia-server mail log``) is kept, in
    days; older rows are deleted. 0: kept for ever."""

    WEBHOOK_ALLOW_PRIVATE: int = 0
    """1 lets webhooks (docs/webhooks.md) reach private, loopback, link-local and other
    non-global addresses, for tests and local use; 0 (the default) refuses such a URL when it is
    set (422) and again when it is delivered to (the name is resolved and the checked address
    connected to), so a webhook cannot reach the server's own network."""

    WEBHOOK_TIMEOUT_SECONDS: float = 10.0
    """How long one webhook delivery may take (to connect, and to answer) before it counts as
    failed and is retried later with backoff."""

    extra: dict[str, Any] = field(default_factory=dict)
    """Any other ``create_app`` key, passed through to ``app.config`` unchanged (e.g. TESTING)."""

    def __post_init__(self) -> None:
        if not 0 <= self.LONG_POLL_MAX_SECONDS <= LONG_POLL_LIMIT_SECONDS:
            raise ValueError(f"setting {ENV_PREFIX}LONG_POLL_MAX_SECONDS must be 0 to "
                             f"{LONG_POLL_LIMIT_SECONDS} (the API documents ?wait up to "
                             f"{LONG_POLL_LIMIT_SECONDS}), got {self.LONG_POLL_MAX_SECONDS}")
        if self.INBOUND_REQUIRE_AUTH.strip().lower() in ("dkim", "spf") \
                and not self.INBOUND_AUTHSERV_ID.strip():
            raise ValueError(f"setting {ENV_PREFIX}INBOUND_REQUIRE_AUTH="
                             f"{self.INBOUND_REQUIRE_AUTH.strip()} needs {ENV_PREFIX}"
                             "INBOUND_AUTHSERV_ID: the authserv-id your mail server writes first "
                             "in its Authentication-Results header (e.g. mx.example.org)")

    @classmethod
    def load(
        cls, overrides: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
    ) -> Settings:
        """Defaults, then ``IRIDESCIA_*`` environment variables, then ``overrides``."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        known = {f.name: f for f in dataclasses.fields(cls) if f.name != "extra"}
        for name, spec in known.items():
            raw = environ.get(ENV_PREFIX + name)
            if raw is not None:
                values[name] = _convert(name, raw, spec.type)
        for name, value in (overrides or {}).items():
            if name in known:
                values[name] = _convert(name, value, known[name].type)
            else:
                extra[name] = value
        return cls(**values, extra=extra)

    def as_flask_config(self) -> dict[str, Any]:
        config = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "extra"}
        config.update(self.extra)
        config["MAX_CONTENT_LENGTH"] = self.MAX_BODY_BYTES
        return config


def setting_docs() -> list[tuple[str, str, str]]:
    """(environment variable, default, description) for every setting: the README's table."""
    import ast
    import inspect

    source = inspect.getsource(Settings)
    tree = ast.parse(source)
    docs: dict[str, str] = {}
    body = tree.body[0].body  # type: ignore[attr-defined]
    for node, following in zip(body, body[1:], strict=False):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
        ):
            docs[node.target.id] = " ".join(str(following.value.value).split())
    defaults = Settings()
    return [
        (ENV_PREFIX + name, repr(getattr(defaults, name)), text)
        for name, text in docs.items()
        if name != "extra"
    ]


def _convert(name: str, value: Any, annotation: Any) -> Any:
    if annotation in (int, "int") and not isinstance(value, int):
        try:
            return int(str(value).strip())
        except ValueError:
            raise ValueError(f"setting {ENV_PREFIX}{name} must be a whole number, got {value!r}") from None
    if annotation in (float, "float") and not isinstance(value, int | float):
        try:
            return float(str(value).strip())
        except ValueError:
            raise ValueError(f"setting {ENV_PREFIX}{name} must be a number, got {value!r}") from None
    return value
