"""IRIDESCIA_SMTP_URL and friends, and the retry schedule."""

import random
from pathlib import Path

import pytest

from server.delivery.backoff import retry_delay
from server.mail import MailSettings, SmtpUrlError


def test_smtp_url_with_credentials_and_port():
    settings = MailSettings.from_env(
        {
            "IRIDESCIA_SMTP_URL": "smtp://games%40example.org:s3cr%2Ft@mail.example.org:2525",
            "IRIDESCIA_MAIL_FROM": "Iridescia <games@example.org>",
            "IRIDESCIA_BASE_URL": "https://play.example.org/",
        }
    )
    smtp = settings.smtp
    assert (smtp.host, smtp.port, smtp.security) == ("mail.example.org", 2525, "auto")
    assert (smtp.username, smtp.password) == ("games@example.org", "s3cr/t")
    assert settings.from_address == "Iridescia <games@example.org>"
    assert settings.base_url == "https://play.example.org"


@pytest.mark.parametrize(
    ("url", "security", "port"),
    [
        ("smtps://mail.example.org", "ssl", 465),
        ("smtp://mail.example.org?security=ssl", "ssl", 465),
        ("smtp://mail.example.org?security=starttls", "starttls", 587),
        ("smtp://mail.example.org?security=none", "none", 25),
    ],
)
def test_security_modes_and_their_default_ports(url, security, port):
    smtp = MailSettings.from_env({"IRIDESCIA_SMTP_URL": url}).smtp
    assert (smtp.security, smtp.port) == (security, port)


def test_without_smtp_url_mail_goes_to_the_outbox_directory():
    assert MailSettings.from_env({}).smtp is None
    assert MailSettings.from_env({}).outbox_dir == Path("var/outbox")
    custom = MailSettings.from_env({"IRIDESCIA_OUTBOX_DIR": "/srv/mail"})
    assert custom.outbox_dir == Path("/srv/mail")


def test_bad_smtp_url_says_what_to_write_and_hides_the_password():
    with pytest.raises(SmtpUrlError) as error:
        MailSettings.from_env({"IRIDESCIA_SMTP_URL": "http://u:hunter2@mail.example.org"})
    assert "must start with smtp:// or smtps://" in str(error.value)
    assert "hunter2" not in str(error.value)
    with pytest.raises(SmtpUrlError, match="security='tls' is not one of"):
        MailSettings.from_env({"IRIDESCIA_SMTP_URL": "smtp://mail.example.org?security=tls"})


def test_retry_waits_double_with_jitter_up_to_an_hour():
    rng = random.Random(7)
    first = [retry_delay(1, rng).total_seconds() for _ in range(50)]
    assert all(15 <= s <= 30 for s in first) and len(set(first)) == 50
    assert all(60 <= retry_delay(3, rng).total_seconds() <= 120 for _ in range(50))
    assert all(1800 <= retry_delay(30, rng).total_seconds() <= 3600 for _ in range(50))
