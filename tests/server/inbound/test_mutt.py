"""mutt, a real mail client, replies to the server's mail (issue 26): its own reply command, its
own quoting and attribution, its own threading headers, sent over SMTP to the embedded receiver
with STARTTLS (ssl_force_tls: no plain fallback), trusting the certificate the receiver made
at its first start under var/ (its certificate_file; ssl_verify_host off, as the certificate
names the reply domain and the test reaches the receiver as localhost). Once top-posted, once bottom-posted with a signature under the
commands. mutt is driven through a pseudo-terminal, as a person's keys would drive it: `r`
(reply), an editor that writes the commands, `y` (send). mutt is a Debian package the Makefile
installs (DEBIAN_PACKAGES): without it this test fails, it never skips."""

from __future__ import annotations

import mailbox
import os
import pty
import select
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

from server.inbound.smtp import listen_address, start_receiver
from tests.server.inbound.conftest import answer_to, flat

EDITOR = """import sys
mode, commands, path = sys.argv[1], sys.argv[2], sys.argv[3]
body = open(path, encoding="utf-8").read()
commands = commands.replace("|", "\\n") + "\\n"
if mode == "top":
    body = commands + "\\n" + body
else:  # bottom: under the quote, above mutt's signature (`-- `)
    head, dashes, signature = body.partition("\\n-- \\n")
    body = head.rstrip("\\n") + "\\n\\n" + commands + dashes + signature
open(path, "w", encoding="utf-8").write(body)
open(path + ".seen", "w", encoding="utf-8").write(body)  # what mutt sends, for the test
"""


def _mutt() -> str:
    found = shutil.which("mutt")
    if found is None:
        pytest.fail("mutt is missing: `make system-packages` installs it (apt-get install mutt)")
    return found


def _muttrc(home: Path, port: int, cert: Path, sender: str, mode: str, commands: str) -> Path:
    editor = home / "editor.py"
    editor.write_text(EDITOR)
    (home / "signature").write_text("A player\nsent with mutt\n")
    muttrc = home / "muttrc"
    muttrc.write_text(f"""
set folder = "{home}"
set mbox_type = mbox
set from = "{sender}"
set use_from = yes
set use_envelope_from = yes
set hostname = "example.org"
set smtp_url = "smtp://localhost:{port}/"
set ssl_starttls = yes
set ssl_force_tls = yes
set certificate_file = "{cert}"
set ssl_verify_host = no
set editor = "{sys.executable} {editor} {mode} '{commands}'"
set signature = "{home}/signature"
set sig_dashes = yes
set include = yes
set fast_reply = yes
set reply_to = yes
set edit_headers = no
set record = ""
set copy = no
set postpone = no
set recall = no
set move = no
set quit = yes
set wait_key = no
set charset = "utf-8"
set send_charset = "utf-8"
set tmpdir = "{home}/tmp"
""")
    (home / "tmp").mkdir()
    return muttrc


def _run_in_a_terminal(argv: list[str], env: dict, keys: bytes, seconds: float = 60) -> str:
    """Run `argv` on a pseudo-terminal, type `keys` once it shows its index, and return what it
    drew when it exited (it must exit by itself within `seconds`)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: mutt on the terminal
        os.execve(argv[0], argv, env)
    screen, typed, deadline = b"", False, time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                screen += chunk
            if not typed and b"q:Quit" in screen:
                for key in keys:
                    os.write(fd, bytes([key]))
                    time.sleep(0.3)
                typed = True
            finished, status = os.waitpid(pid, os.WNOHANG)
            if finished:
                pid = 0
                break
        else:
            raise AssertionError(f"mutt did not finish: {screen[-2000:]!r}")
    finally:
        if pid:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
    return screen.decode("utf-8", "replace")


@pytest.mark.parametrize("mode", ["top", "bottom"])
def test_mutt_replies_over_starttls_top_and_bottom_posted(mode, duel, post, app, tmp_path,
                                                          monkeypatch):
    mutt = _mutt()
    monkeypatch.chdir(tmp_path)  # the receiver makes its certificate under ./var/
    controller = start_receiver(app, listen_address(app.config["INBOUND_SMTP"]))
    try:
        cert = tmp_path / "var" / "inbound-tls" / "cert.pem"
        home = tmp_path / "mutt"
        home.mkdir()
        box = mailbox.mbox(str(home / "inbox"))
        box.add(mailbox.mboxMessage(duel.mail))  # the turn mail, as mutt's mailbox holds it
        box.close()
        port = int(app.config["INBOUND_SMTP"].rpartition(":")[2])
        muttrc = _muttrc(home, port, cert, duel.player.email, mode, duel.first)
        before = post.count()
        env = {"HOME": str(home), "TERM": "vt100", "LANG": "C.UTF-8",
               "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
        # r: reply (to the Reply-To, quoting the mail); the editor writes; y: send; q: quit.
        screen = _run_in_a_terminal(
            [mutt, "-n", "-F", str(muttrc), "-f", str(home / "inbox")], env, b"ryq")
        assert "Mail sent" in screen or "Sending message" in screen, screen[-2000:]
        # mutt's reply as its editor left it: its attribution and `> ` quote of our mail, the
        # commands above it (top) or under it and above the signature (bottom).
        [written] = home.glob("tmp/*.seen")
        lines = written.read_text().splitlines()
        quoted = [i for i, line in enumerate(lines) if line.startswith("> ")]
        command, signature = lines.index(duel.first), lines.index("-- ")
        assert quoted and lines[quoted[0] - 1].endswith(" wrote:")
        assert "> ## Reply above this line ##" in lines
        if mode == "top":
            assert command < quoted[0]
        else:
            assert quoted[-1] < command < signature
        post.deliver()
        assert post.count() > before, screen[-2000:]
        answer = post.answer(duel.player.email)
        text = flat(answer_to(post, duel.player.email))
        assert f"Applied: {duel.first}" in text, text
        # mutt threads its reply under our mail; our answer threads under mutt's reply.
        assert answer["In-Reply-To"]
    finally:
        controller.stop()
