"""STARTTLS on the embedded SMTP receiver (issue 26): a client that starts TLS whenever it is
offered (mutt, most MTAs) delivers a reply over it, with the certificate made at the first start
under var/ or the one configured; a client without TLS still delivers."""

from __future__ import annotations

import smtplib
import ssl

import pytest

from server import create_app
from server.inbound.smtp import listen_address, start_receiver
from server.inbound.tls import TlsSettingError, certificate_files, make_self_signed
from tests.server.inbound.conftest import answer_to, flat
from tests.server.inbound.post import reply


def _send_over_tls(app, raw: bytes, to: str, sender: str, trusted) -> None:
    host, _, port = app.config["INBOUND_SMTP"].rpartition(":")
    context = ssl.create_default_context(cafile=str(trusted))
    context.check_hostname = False  # the receiver is reached by its IP here
    with smtplib.SMTP(host, int(port), timeout=30) as smtp:
        smtp.ehlo("mutt.example.org")
        assert smtp.has_extn("starttls")
        smtp.starttls(context=context)
        smtp.ehlo("mutt.example.org")
        assert smtp.sock.version() in ("TLSv1.2", "TLSv1.3")
        smtp.sendmail(sender, [to], raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))


def test_a_reply_over_starttls_with_the_certificate_made_at_first_start(
        duel, post, app, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # var/ is the working directory's
    controller = start_receiver(app, listen_address(app.config["INBOUND_SMTP"]))
    try:
        made = tmp_path / "var" / "inbound-tls" / "cert.pem"
        assert made.is_file() and (made.parent / "key.pem").stat().st_mode & 0o077 == 0
        _send_over_tls(app, reply(duel.mail, duel.first), str(duel.mail["Reply-To"]),
                       duel.player.email, made)
        post.deliver()
        assert f"Applied: {duel.first}" in flat(answer_to(post, duel.player.email))
    finally:
        controller.stop()


def test_the_configured_certificate_is_used_and_plain_smtp_still_works(settings, tmp_path):
    cert, key = tmp_path / "mine.pem", tmp_path / "mine.key"
    make_self_signed(cert, key, "mx.iridescia.test")
    app = create_app(dict(settings, INBOUND_TLS_CERT=str(cert), INBOUND_TLS_KEY=str(key)))
    controller = start_receiver(app, listen_address(app.config["INBOUND_SMTP"]))
    try:
        host, _, port = app.config["INBOUND_SMTP"].rpartition(":")
        context = ssl.create_default_context(cafile=str(cert))
        context.check_hostname = False
        with smtplib.SMTP(host, int(port), timeout=30) as smtp:
            smtp.starttls(context=context)  # verified against the configured certificate
            assert smtp.noop()[0] == 250
        with smtplib.SMTP(host, int(port), timeout=30) as smtp:  # no TLS: still accepted
            refused = smtp.sendmail("nobody@example.org", ["play@iridescia.test"],
                                    b"Subject: x\r\nMessage-ID: <x@example.org>\r\n\r\n"
                                    b"hello\r\n")
            assert refused == {}
    finally:
        controller.stop()
    assert not (tmp_path / "var").exists()


def test_half_a_certificate_setting_is_refused_with_what_to_do(tmp_path):
    with pytest.raises(TlsSettingError, match="set both"):
        certificate_files(str(tmp_path / "cert.pem"), "", tmp_path)
    with pytest.raises(TlsSettingError, match="is not a file"):
        certificate_files(str(tmp_path / "cert.pem"), str(tmp_path / "key.pem"), tmp_path)
