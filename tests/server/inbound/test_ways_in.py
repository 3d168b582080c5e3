"""A solo game against the Rhom, created by `new solo` to the bare address and played only by
mail, through each way in: the embedded SMTP receiver, `iridescia-server mail ingest` on
standard input (as an MTA's pipe runs it), and IMAP polling of a real IMAP server (pymap, started
by the test). And the pipe's exit codes, which a mail server acts on."""

import os
import re
import subprocess
import sys
import time
from email.message import EmailMessage
from email.utils import make_msgid

from click.testing import CliRunner

from tests.server.inbound.conftest import flat, free_port, imap_mailbox
from tests.server.inbound.play_by_mail import MailPlayer, play_to_the_end, verify_export
from tests.server.inbound.post import text_of

BARE = "play@iridescia.test"


def new_solo(sender: str, code: str = "") -> bytes:
    message = EmailMessage()
    message["From"], message["To"] = sender, BARE
    message["Subject"], message["Message-ID"] = "a game please", make_msgid(domain="example.org")
    message.set_content(f"new solo {code}".strip() + "\n")
    return bytes(message)


def solo_code(post, address: str) -> str:
    """The player's `new solo` code, as the list of their games tells it."""
    told = flat(text_of(post.latest(address)))
    return re.search(r"send `new solo (\w+)`", told).group(1)


def play_solo(post, table, tmp_path, send) -> None:
    ada = table.register("Ada")
    send(new_solo(ada.email), BARE, ada.email)  # no code: the list of games tells it
    post.deliver()
    send(new_solo(ada.email, solo_code(post, ada.email)), BARE, ada.email)
    post.deliver()
    started = post.latest(ada.email, "your solo game")
    game_id = str(started["Subject"]).split()[3].rstrip(":")
    assert f"Your solo game {game_id} against the Rhom has started" in flat(text_of(started))
    assert "You may type now" in text_of(started) or "the Rhom's turn now" in text_of(started)
    seat = next(p["seat"] for p in table._call("get", f"/games/{game_id}", ada)["players"]
                if p["user_id"] == ada.id)
    player = MailPlayer(post, table, ada.email, send)
    play_to_the_end(post, table, game_id, {seat: player})
    assert player.mails_sent > 10
    assert "OK" in verify_export(table, game_id, ada, tmp_path)


def test_a_solo_game_created_and_played_by_mail_over_smtp(post, table, receiver, tmp_path):
    play_solo(post, table, tmp_path, post.send_smtp)


def environment(settings: dict) -> dict[str, str]:
    return {f"IRIDESCIA_{key}": str(value) for key, value in settings.items() if key != "TESTING"}


def test_a_solo_game_played_through_mail_ingest_on_stdin(post, table, settings, tmp_path):
    from server.cli import main

    runner = CliRunner()

    def pipe(raw: bytes, to: str, sender: str) -> None:
        result = runner.invoke(main, ["mail", "ingest", "--recipient", to], input=raw,
                               env=environment(settings))
        assert result.exit_code == 0, result.output

    play_solo(post, table, tmp_path, pipe)


def _run_ingest(settings: dict, raw: bytes, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, **environment(settings))
    return subprocess.run([sys.executable, "-m", "server.cli", "mail", "ingest", *args],
                          input=raw, env=env, capture_output=True, timeout=60)


def test_the_pipe_exits_0_when_handled_67_for_an_unknown_address_75_when_the_database_is_down(
        post, table, settings):
    ada = table.register("Ada")
    asked = _run_ingest(settings, new_solo(ada.email), "--recipient", BARE)
    assert asked.returncode == 0, asked.stderr
    post.deliver()
    done = _run_ingest(settings, new_solo(ada.email, solo_code(post, ada.email)), "--recipient",
                       BARE)
    assert done.returncode == 0, done.stderr
    assert b"created: solo game" in done.stderr

    elsewhere = _run_ingest(settings, new_solo(ada.email), "--recipient", "sales@iridescia.test")
    assert elsewhere.returncode == 67
    assert b"unknown_address" in elsewhere.stderr

    down = dict(settings, DATABASE_URL=f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/x")
    retry = _run_ingest(down, new_solo(ada.email), "--recipient", BARE)
    assert retry.returncode == 75, retry.stderr
    assert b"temporary" in retry.stderr


def test_a_solo_game_played_through_imap_polling(post, table, imap_server, tmp_path, app):
    from server.inbound.imap import ImapSettings, Mailbox

    server_side = Mailbox(ImapSettings.from_url(f"imap://play:secret@127.0.0.1:{imap_server}/INBOX"))

    mailbox = imap_mailbox(imap_server)  # the players' side: one connection (a login is slow)

    def by_imap(raw: bytes, to: str, sender: str) -> None:
        mailbox.append("INBOX", None, None, raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
        assert server_side.poll(app) != {}

    play_solo(post, table, tmp_path, by_imap)
    server_side.close()
    mailbox.select("INBOX")
    assert mailbox.uid("SEARCH", None, "UNSEEN")[1] == [b""]  # every message flagged, once handled
    assert len(mailbox.uid("SEARCH", None, "SEEN")[1][0].split()) > 10


def test_imap_leaves_a_message_unseen_when_the_database_is_down(post, table, imap_server,
                                                                settings):
    from server import create_app
    from server.inbound.imap import ImapSettings, poll

    down = create_app(dict(settings, DATABASE_URL="postgresql+psycopg://postgres@127.0.0.1:"
                                                  f"{free_port()}/x"))
    mailbox = imap_mailbox(imap_server)
    mailbox.append("INBOX", None, None, new_solo("ada@example.org").replace(b"\n", b"\r\n"))
    imap = ImapSettings.from_url(f"imap://play:secret@127.0.0.1:{imap_server}/INBOX")
    assert poll(down, imap) == {"temporary": 1}
    mailbox.select("INBOX")
    assert len(mailbox.uid("SEARCH", None, "UNSEEN")[1][0].split()) == 1
    mailbox.logout()


def test_the_scheduler_polls_the_mailbox_of_imap_url(post, table, imap_server, settings):
    from server import create_app
    from server.scheduler import start_embedded

    app = create_app(dict(settings, IMAP_URL=f"imap://play:secret@127.0.0.1:{imap_server}/INBOX",
                          SCHEDULER_INTERVAL_SECONDS=0.2))
    ada = table.register("Ada")
    mailbox = imap_mailbox(imap_server)
    mailbox.append("INBOX", None, None, new_solo(ada.email).replace(b"\n", b"\r\n"))
    scheduler = start_embedded(app)

    def answered(subject: str) -> None:
        deadline = time.monotonic() + 30
        while not any(subject in str(m["Subject"]) for m in post.mail_to(ada.email)):
            assert time.monotonic() < deadline, "the scheduler did not read the mailbox"
            time.sleep(0.1)

    try:
        answered("a game please")  # the list of games, with the code `new solo` needs
        mailbox.append("INBOX", None, None, new_solo(ada.email, solo_code(post, ada.email))
                       .replace(b"\n", b"\r\n"))
        answered("your solo game")
    finally:
        scheduler.shutdown(wait=True)
    mailbox.select("INBOX")
    assert mailbox.uid("SEARCH", None, "UNSEEN")[1] == [b""]
    mailbox.logout()


def test_a_poison_mail_does_not_block_the_mailbox(post, table, imap_server, app, monkeypatch):
    """Issue 32, H2: a multipart nested 1,000 deep raised out of every poll and was never
    flagged, so no mail behind it was ever read. Now it is refused unread, and a mail whose
    handling raises anyway is flagged and skipped."""
    from server.inbound import imap as imap_module
    from server.inbound.imap import ImapSettings, poll
    from tests.server.inbound.test_bounded_reading import nested

    ada = table.register("Ada")
    mailbox = imap_mailbox(imap_server)
    # 60 deep (the test's IMAP server stores no deeper): past the bounds, as 1,000 deep is.
    for raw in (nested("mallory@evil.example", BARE, 60), b"Subject: raises\r\n\r\nx\r\n",
                new_solo(ada.email)):
        mailbox.append("INBOX", None, None, raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    real_ingest = imap_module.ingest

    def ingest(raw, **kwargs):
        if b"Subject: raises" in raw:
            raise RecursionError("maximum recursion depth exceeded")
        return real_ingest(raw, **kwargs)

    monkeypatch.setattr(imap_module, "ingest", ingest)
    imap = ImapSettings.from_url(f"imap://play:secret@127.0.0.1:{imap_server}/INBOX")
    assert poll(app, imap) == {"unreadable": 1, "failed": 1, "answered": 1}
    assert poll(app, imap) == {}  # nothing left unseen: the next poll reads nothing again
    mailbox.select("INBOX")
    assert len(mailbox.uid("SEARCH", None, "FLAGGED")[1][0].split()) == 1
    mailbox.logout()


def test_the_pipe_answers_a_poison_mail_without_a_traceback(post, table, settings):
    """Issue 32, L1: the pipe exited 1 with a traceback (RecursionError)."""
    from tests.server.inbound.test_bounded_reading import nested

    done = _run_ingest(settings, nested("mallory@evil.example", BARE, 1000), "--recipient", BARE)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr and b"unreadable" in done.stderr


def test_the_pipe_never_answers_the_null_envelope_sender_postfix_gives(post, table, settings):
    """`--sender ${sender}`: Postfix writes the null sender of a bounce as MAILER-DAEMON."""
    from server.cli import main

    ada = table.register("Ada")
    runner = CliRunner()
    for sender in ("MAILER-DAEMON", ""):
        result = runner.invoke(main, ["mail", "ingest", "--recipient", BARE, "--sender", sender],
                               input=new_solo(ada.email), env=environment(settings))
        assert result.exit_code == 0, result.output
        assert "ignored: a null envelope sender" in result.output
    post.deliver()
    assert post.mail_to(ada.email) == []
