"""The embedded SMTP receiver's bounds (issue 32, L9): 1,100 idle connections exhausted the
descriptors and took the API down with them; 60 unfinished uploads held 261 MiB."""

import smtplib
import socket
import time

import pytest

from server.inbound import smtp as receiver_module


def _greeting(port: int) -> tuple[socket.socket, bytes]:
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    return connection, connection.recv(200)


@pytest.fixture
def port(app):
    return int(app.config["INBOUND_SMTP"].rpartition(":")[2])


def test_a_connection_over_the_session_limit_gets_421_and_the_others_keep_theirs(
        app, receiver, port, monkeypatch):
    monkeypatch.setattr(receiver_module, "MAX_SESSIONS", 5)
    held = [_greeting(port) for _ in range(5)]
    assert all(greeting.startswith(b"220") for _, greeting in held)
    extra, refused = _greeting(port)
    assert refused.startswith(b"421"), refused
    extra.close()
    held.pop()[0].close()
    time.sleep(0.5)  # the closed session is counted out
    again, greeting = _greeting(port)
    assert greeting.startswith(b"220"), greeting
    for connection, _ in held + [(again, b"")]:
        connection.close()


def test_an_idle_session_is_closed(settings, monkeypatch):
    from server import create_app

    monkeypatch.setattr(receiver_module, "IDLE_SECONDS", 1)
    app = create_app(settings)
    controller = receiver_module.start_receiver(
        app, receiver_module.listen_address(app.config["INBOUND_SMTP"]))
    try:
        connection, greeting = _greeting(int(app.config["INBOUND_SMTP"].rpartition(":")[2]))
        assert greeting.startswith(b"220")
        connection.settimeout(10)
        started = time.monotonic()
        while connection.recv(200):  # the server's goodbye, then the close
            pass
        assert time.monotonic() - started < 8
        connection.close()
    finally:
        controller.stop()


def test_an_upload_over_the_size_limit_and_its_headroom_is_refused_552(app, receiver, port):
    too_big = b"Subject: x\r\n\r\n" + (b"x" * 998 + b"\r\n") * (
        (app.config["MAX_INBOUND_BYTES"] + receiver_module.HEADROOM) // 1000 + 10)
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        with pytest.raises(smtplib.SMTPException) as refused:
            client.sendmail("ada@example.org", ["play@iridescia.test"], too_big)
    assert "552" in str(refused.value)


def test_a_mail_beyond_the_waiting_line_gets_451_and_its_server_retries(app, receiver, port,
                                                                        monkeypatch):
    """Mail is handled in the receiver's own threads; with MAX_WAITING already waiting the next
    is deferred (451), so a flood cannot take the API process's time without bound."""
    monkeypatch.setattr(receiver_module, "MAX_WAITING", 0)
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        with pytest.raises(smtplib.SMTPDataError) as deferred:
            client.sendmail("ada@example.org", ["play@iridescia.test"], b"Subject: x\r\n\r\nhi\r\n")
    assert deferred.value.smtp_code == 451
