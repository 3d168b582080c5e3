"""Mail settings read from the environment.

`IRIDESCIA_SMTP_URL`    smtp://user:pass@host:port (STARTTLS when the server offers it),
                        smtp://...?security=starttls (STARTTLS required), smtps://... or
                        ?security=ssl (implicit TLS), ?security=none (plain).
`IRIDESCIA_MAIL_FROM`   the From address (default "Iridescia <iridescia@localhost>").
`IRIDESCIA_OUTBOX_DIR`  where .eml files go without SMTP (default var/outbox).
`IRIDESCIA_BASE_URL`    the server's public address, for links in emails.
"""

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

DEFAULT_FROM = "Iridescia <iridescia@localhost>"
DEFAULT_OUTBOX_DIR = "var/outbox"
DEFAULT_BASE_URL = "http://127.0.0.1:5000"
DEFAULT_REPLY_ADDRESS = "play@localhost"
DEFAULT_SECRET_KEY = "dev-only-change-me"
SECURITY_MODES = ("auto", "starttls", "ssl", "none")


class SmtpUrlError(ValueError):
    """IRIDESCIA_SMTP_URL cannot be understood."""


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    username: str | None = None
    password: str | None = None
    security: str = "auto"
    timeout: float = 20.0

    @classmethod
    def from_url(cls, url: str) -> "SmtpSettings":
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps"):
            raise SmtpUrlError(
                f"IRIDESCIA_SMTP_URL {_redacted(url)!r} must start with smtp:// or smtps://, "
                "e.g. smtp://user:pass@mail.example.org:587"
            )
        if not parts.hostname:
            raise SmtpUrlError(f"IRIDESCIA_SMTP_URL {_redacted(url)!r} names no host")
        query = parse_qs(parts.query)
        security = query.get("security", ["ssl" if parts.scheme == "smtps" else "auto"])[0]
        if security not in SECURITY_MODES:
            raise SmtpUrlError(
                f"IRIDESCIA_SMTP_URL security={security!r} is not one of {', '.join(SECURITY_MODES)}"
            )
        try:
            port = parts.port
        except ValueError as error:
            raise SmtpUrlError(f"IRIDESCIA_SMTP_URL {_redacted(url)!r}: {error}") from None
        if port is None:
            port = 465 if security == "ssl" else 587 if security == "starttls" else 25
        timeout = float(query.get("timeout", ["20"])[0])
        return cls(
            host=parts.hostname,
            port=port,
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            security=security,
            timeout=timeout,
        )


@dataclass(frozen=True)
class MailSettings:
    smtp: SmtpSettings | None = None
    from_address: str = DEFAULT_FROM
    outbox_dir: Path = Path(DEFAULT_OUTBOX_DIR)
    base_url: str = DEFAULT_BASE_URL
    reply_address: str = DEFAULT_REPLY_ADDRESS
    secret_key: str = DEFAULT_SECRET_KEY  # signs the reply addresses

    @classmethod
    def from_env(cls, env=None) -> "MailSettings":
        env = os.environ if env is None else env
        url = env.get("IRIDESCIA_SMTP_URL", "").strip()
        return cls(
            smtp=SmtpSettings.from_url(url) if url else None,
            from_address=env.get("IRIDESCIA_MAIL_FROM", "").strip() or DEFAULT_FROM,
            outbox_dir=Path(env.get("IRIDESCIA_OUTBOX_DIR", "").strip() or DEFAULT_OUTBOX_DIR),
            base_url=(env.get("IRIDESCIA_BASE_URL", "").strip() or DEFAULT_BASE_URL).rstrip("/"),
            reply_address=env.get("IRIDESCIA_REPLY_ADDRESS", "").strip() or DEFAULT_REPLY_ADDRESS,
            secret_key=env.get("IRIDESCIA_SECRET_KEY", "") or DEFAULT_SECRET_KEY,
        )

    @classmethod
    def for_app(cls, config, env=None) -> "MailSettings":
        """The environment's settings, overridden by the app's config keys SMTP_URL, MAIL_FROM,
        OUTBOX_DIR, BASE_URL, REPLY_ADDRESS and SECRET_KEY (e.g. `create_app({"SMTP_URL": ...})`)."""
        env = dict(os.environ if env is None else env)
        for key in ("SMTP_URL", "MAIL_FROM", "OUTBOX_DIR", "BASE_URL", "REPLY_ADDRESS", "SECRET_KEY"):
            if config.get(key) is not None:
                env[f"IRIDESCIA_{key}"] = str(config[key])
        return cls.from_env(env)


def _redacted(url: str) -> str:
    """The URL without its password, fit for an error message or a log line."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)
