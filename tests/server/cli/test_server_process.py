"""`iridescia-server serve` as a real process, the way `make run` starts it.

The server runs in an empty temporary directory with no IRIDESCIA_* settings, so it uses its
defaults there: SQLite at var/iridescia.db, mail to var/outbox/. It must answer, have migrated its
database by itself, accept a registration over real HTTP, and its embedded scheduler must write
an invitation's email to var/outbox/.
"""

from __future__ import annotations

import email
import email.policy
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

STARTUP_SECONDS = 60


def server_command() -> list[str]:
    """The installed console script next to this interpreter (the venv's), else on PATH."""
    beside = Path(sys.executable).with_name("iridescia-server")
    found = str(beside) if beside.exists() else shutil.which("iridescia-server")
    if found is None:
        pytest.fail("the iridescia-server console script is not installed (pip install -e .)")
    return [found]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


RECEIVER: dict[str, int] = {}  # the served process's SMTP receiver


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(base URL, working directory) of a running `iridescia-server serve`."""
    workdir = tmp_path_factory.mktemp("served")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("IRIDESCIA_")}
    env["IRIDESCIA_SCHEDULER_INTERVAL_SECONDS"] = "1"  # so the mail test does not wait long
    # Its SMTP receiver on a free port (2525 may be another server's).
    env["IRIDESCIA_INBOUND_SMTP"] = f"127.0.0.1:{free_port()}"
    RECEIVER["port"] = int(env["IRIDESCIA_INBOUND_SMTP"].rpartition(":")[2])
    log = (workdir / "server.log").open("w")
    process = subprocess.Popen(
        [*server_command(), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=workdir,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if process.poll() is not None:
                pytest.fail(
                    f"iridescia-server serve exited with {process.returncode} before answering:\n"
                    + (workdir / "server.log").read_text()
                )
            try:
                if requests.get(f"{base}/api/v1/health", timeout=2).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(
                    f"iridescia-server serve did not answer /api/v1/health within "
                    f"{STARTUP_SECONDS} s:\n" + (workdir / "server.log").read_text()
                )
            time.sleep(0.2)
        yield base, workdir
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)
        log.close()


def test_it_answers_health_with_the_database_ok(served):
    base, _ = served
    response = requests.get(f"{base}/api/v1/health", timeout=5)
    assert response.status_code == 200
    assert response.json()["database"] == "ok"


def test_it_migrated_its_sqlite_database_under_var(served):
    _, workdir = served
    database = workdir / "var" / "iridescia.db"
    assert database.is_file(), f"no database at {database}"
    with sqlite3.connect(database) as connection:
        tables = {
            row[0]
            for row in connection.execute("select name from sqlite_master where type = 'table'")
        }
        revisions = connection.execute("select version_num from alembic_version").fetchall()
    assert {"users", "alembic_version"} <= tables
    assert len(revisions) == 1


def test_it_accepts_a_registration_and_the_token_works(served):
    base, workdir = served
    token = _sign_up(base, workdir / "var" / "outbox", "Ada", "ada@example.org")
    me = requests.get(
        f"{base}/api/v1/users/me", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert me.status_code == 200, me.text
    assert me.json()["name"] == "Ada" and me.json()["email"] == "ada@example.org"


def _mail_to(outbox, address):
    """The text of the first .eml in ``outbox`` to ``address``, waiting up to 30 s for it."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for path in sorted(outbox.glob("*.eml")):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if address in message["To"]:
                return message.get_body(("plain",)).get_content()
        time.sleep(0.2)
    pytest.fail(f"no email to {address} in {outbox} after 30 s")


def _sign_up(base: str, outbox, name: str, address: str) -> str:
    """Register as a player does: the answer only says a mail is on its way; the token comes
    from confirming the address with the code that mail (in var/outbox/) carries."""
    created = requests.post(f"{base}/api/v1/users", json={"name": name, "email": address},
                            timeout=10)
    assert created.status_code == 202, created.text
    code = re.search(r"iridescia confirm --code (\S+)", _mail_to(outbox, address))
    assert code, f"no confirmation code in the mail to {address}"
    confirmed = requests.post(f"{base}/api/v1/users/verify", json={"code": code.group(1)},
                              timeout=10)
    assert confirmed.status_code == 200 and confirmed.json()["token"], confirmed.text
    return confirmed.json()["token"]


def test_its_scheduler_writes_an_invitation_to_var_outbox(served):
    """Bea registers and confirms her address with the code mailed to her (an invitation is
    mailed only for a confirmed inviter), and invites Cy."""
    base, workdir = served
    outbox = workdir / "var" / "outbox"
    auth = {"Authorization": f"Bearer {_sign_up(base, outbox, 'Bea', 'bea@example.org')}"}
    game = requests.post(f"{base}/api/v1/games", json={"seats": 2}, headers=auth, timeout=10)
    assert game.status_code == 201, game.text
    invited = requests.post(
        f"{base}/api/v1/games/{game.json()['id']}/invitations",
        json={"email": "cy@example.org"},
        headers=auth,
        timeout=10,
    )
    assert invited.status_code == 201 and invited.json()["mailed"], invited.text
    assert invited.json()["join_code"] in _mail_to(outbox, "cy@example.org")


def test_it_receives_mail_and_answers_a_new_solo_by_mail(served):
    """`serve` starts the SMTP receiver: a registered player's `new solo` to the bare address
    creates a game, and the answer is written to var/outbox/."""
    import smtplib
    from email.message import EmailMessage

    base, workdir = served
    outbox = workdir / "var" / "outbox"
    # An unconfirmed address is mailed nothing else, answers included: Dee confirms hers.
    _sign_up(base, outbox, "Dee", "dee@example.org")

    def send(body: str, number: int) -> None:
        message = EmailMessage()
        message["From"], message["To"] = "dee@example.org", "play@localhost"
        message["Subject"], message["Message-ID"] = "hi", f"<solo-{number}@example.org>"
        message.set_content(body)
        with smtplib.SMTP("127.0.0.1", RECEIVER["port"], timeout=30) as smtp:
            smtp.send_message(message)

    def answer(words: str) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for path in outbox.glob("answer_*.eml"):
                message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                text = " ".join(message.get_body(("plain",)).get_content().split())
                if "dee@example.org" in message["To"] and words in text:
                    return text
            time.sleep(0.2)
        pytest.fail(f"no answer to dee@example.org saying {words!r} in {outbox} after 30 s")

    # Without her code (the list of her games tells it), `new solo` starts nothing.
    send("new solo", 1)
    code = re.search(r"send `new solo (\w+)`", answer("No game was started")).group(1)
    send(f"new solo {code}", 2)
    assert "against the Rhom has started" in answer("against the Rhom has started")


def test_serve_warns_loudly_about_the_default_secret_key_on_a_public_address(capsys):
    from server.cli import warn_about_the_secret_key
    from server.config import Settings

    public = {"SECRET_KEY": Settings.SECRET_KEY, "BASE_URL": "https://iridescia.example.org"}
    assert warn_about_the_secret_key(public)
    assert "WARNING: IRIDESCIA_SECRET_KEY is the development default" in capsys.readouterr().err
    assert not warn_about_the_secret_key(dict(public, BASE_URL="http://127.0.0.1:5000"))
    assert not warn_about_the_secret_key(dict(public, SECRET_KEY="a long random value"))
