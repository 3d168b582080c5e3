"""Mail that must not act, or must act only in part: each is answered with the reason when its
sender is registered, and not at all otherwise (no backscatter to forged senders)."""

from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from sqlmodel import select

from server.storage.db import app_engine, session_scope
from server.storage.models import InboundMessage
from tests.server.inbound.conftest import answer_to, flat
from tests.server.inbound.post import reply, text_of


def version(table, game_id):
    return table.game(game_id).version


def test_a_tampered_token_does_nothing_and_says_why(post, table, duel):
    to = str(duel.mail["Reply-To"])
    local, _, domain = to.partition("@")
    tampered = local[:-1] + ("a" if local[-1] != "a" else "b") + "@" + domain
    before = version(table, duel.game_id)
    outcome = post.ingest(reply(duel.mail, duel.first, to=tampered))
    post.deliver()
    assert outcome.status == "refused"
    assert version(table, duel.game_id) == before
    assert "the address you wrote to is not valid" in flat(answer_to(post, duel.player.email))


def test_a_token_moved_to_another_game_does_not_verify(post, table, duel):
    other_game = table.new_game(duel.player, [duel.other], seed="other")
    to = str(duel.mail["Reply-To"]).replace(duel.game_id, other_game)
    before = version(table, other_game)
    outcome = post.ingest(reply(duel.mail, duel.first, to=to))
    assert outcome.status == "refused"
    assert version(table, other_game) == before


def test_a_forged_from_is_dropped_silently_or_refused_to_a_registered_sender(post, table, duel):
    before, sent = version(table, duel.game_id), post.count()
    stranger = post.ingest(reply(duel.mail, duel.first, sender="mallory@evil.example"))
    post.deliver()
    assert stranger.status == "dropped" and post.count() == sent  # no backscatter

    other = post.ingest(reply(duel.mail, duel.first, sender=duel.other.email))
    post.deliver()
    assert other.status == "refused"
    assert "belongs to another player" in flat(answer_to(post, duel.other.email))
    assert version(table, duel.game_id) == before


def test_a_reply_after_the_token_was_rotated_is_refused(post, table, duel):
    table._call("post", "/users/me/token", duel.player)
    before = version(table, duel.game_id)
    outcome = post.ingest(reply(duel.mail, duel.first))
    post.deliver()
    assert outcome.status == "refused"
    assert "rotated" in flat(answer_to(post, duel.player.email))
    assert version(table, duel.game_id) == before


def test_a_reply_to_an_old_email_whose_lines_no_longer_apply_is_refused_with_what_changed(
        post, table, duel):
    assert post.ingest(reply(duel.mail, duel.first)).status == "applied"
    post.deliver()
    after = version(table, duel.game_id)
    # The first email again, its reveal again: written for before, and not legal any more.
    stale = post.ingest(reply(duel.mail, f"{duel.first}\nend"))
    post.deliver()
    answer = answer_to(post, duel.player.email)
    assert stale.status == "stopped"
    assert "the game has moved on since the email you replied to" in flat(answer)
    assert "nothing was played" in flat(answer)
    since = answer.split("Since the email you replied to:\n", 1)[1]
    assert "revealed" in since.split("\n\n", 1)[0]  # the player's own reveal, told
    assert "Not run (send them again if you still mean them):\n    end\n" in answer
    assert version(table, duel.game_id) == after


def test_a_reply_to_an_old_email_whose_lines_still_apply_is_played(post, table, duel):
    assert post.ingest(reply(duel.mail, duel.first)).status == "applied"
    post.deliver()
    hexes = duel.first.split()[1:]
    late = post.ingest(reply(duel.mail, f"move {hexes[0]} or move {hexes[-1]}"))
    post.deliver()
    answer = answer_to(post, duel.player.email)
    assert late.status == "applied", late
    assert "every line still applied" in flat(answer)
    assert f"Applied:\n    move {hexes[0]}\n" in answer


def test_an_unknown_word_between_commands_stops_there(post, table, duel):
    outcome = post.ingest(reply(duel.mail, f"{duel.first}\ndance wildly\nend"))
    post.deliver()
    answer = answer_to(post, duel.player.email)
    assert outcome.status == "stopped"
    assert 'Refused: line 2, "dance wildly"' in answer and "unknown command 'dance'" in answer
    assert "Not run (send them again if you still mean them):\n    end\n" in answer


def test_an_html_only_reply_is_read(post, table, duel):
    outcome = post.ingest(reply(duel.mail, f"Hi,\n{duel.first}", style="html"))
    post.deliver()
    assert outcome.status == "applied", outcome
    assert f"Applied:\n    {duel.first}\n" in answer_to(post, duel.player.email)


@pytest.mark.parametrize("style", ["gmail", "outlook"])
def test_a_reply_quoting_the_whole_email_runs_only_the_new_lines(post, table, duel, style):
    quoted = text_of(duel.mail)
    outcome = post.ingest(reply(duel.mail, duel.first, style=style))
    post.deliver()
    answer = answer_to(post, duel.player.email)
    assert outcome.status == "applied", outcome
    assert f"Applied:\n    {duel.first}\n\n" in answer
    assert "Not commands" not in answer  # nothing of the quoted email was read
    assert "Hello" in quoted


def test_crlf_line_endings(post, table, duel):
    outcome = post.ingest(reply(duel.mail, f"{duel.first}\n", crlf=True))
    assert outcome.status == "applied", outcome


def test_a_signature_is_not_read(post, table, duel):
    outcome = post.ingest(reply(duel.mail, f"{duel.first}\n\n-- \nBo\nend of the line"))
    post.deliver()
    assert outcome.status == "applied", outcome
    assert "Not commands" not in answer_to(post, duel.player.email)


def test_an_oversized_message_is_refused_with_a_reason(post, table, duel, app):
    body = duel.first + "\n" + ("x" * 70 + "\n") * (app.config["MAX_INBOUND_BYTES"] // 70 + 10)
    before = version(table, duel.game_id)
    outcome = post.ingest(reply(duel.mail, body))
    post.deliver()
    assert outcome.status == "too_large"
    answer = flat(answer_to(post, duel.player.email))
    assert "more than the 1048576 this server reads" in answer
    assert version(table, duel.game_id) == before


def _bounce(to: str) -> bytes:
    message = EmailMessage()
    message["From"] = "MAILER-DAEMON@mx.example.org"
    message["To"] = to
    message["Subject"] = "Undelivered Mail Returned to Sender"
    message["Message-ID"] = make_msgid(domain="mx.example.org")
    message.set_content("This is the mail system.")
    message.add_attachment("Reporting-MTA: dns; mx.example.org\n", subtype="delivery-status")
    message.replace_header("Content-Type", 'multipart/report; report-type=delivery-status')
    return bytes(message)


def test_an_auto_reply_and_a_bounce_are_ignored_without_an_answer(post, table, duel):
    before, sent = version(table, duel.game_id), post.count()
    auto = post.ingest(reply(duel.mail, "I am on holiday until Monday.\n" + duel.first,
                             headers={"Auto-Submitted": "auto-replied"}))
    bulk = post.ingest(reply(duel.mail, duel.first, headers={"Precedence": "bulk"}))
    bounce = post.ingest(_bounce(str(duel.mail["Reply-To"])))
    post.deliver()
    assert (auto.status, bulk.status, bounce.status) == ("ignored", "ignored", "ignored")
    assert post.count() == sent and version(table, duel.game_id) == before


def test_the_same_message_twice_changes_nothing(post, table, duel):
    raw = reply(duel.mail, duel.first)
    assert post.ingest(raw).status == "applied"
    after = version(table, duel.game_id)
    post.deliver()
    answers = len(post.mail_to(duel.player.email))
    assert post.ingest(raw).status == "duplicate"
    post.deliver()
    assert version(table, duel.game_id) == after
    assert len(post.mail_to(duel.player.email)) == answers


def test_every_message_is_recorded_and_shown_by_mail_log(post, table, duel, settings):
    from click.testing import CliRunner

    from server.cli import main
    from tests.server.inbound.test_ways_in import environment

    post.ingest(reply(duel.mail, duel.first))
    post.ingest(reply(duel.mail, duel.first, sender="mallory@evil.example"))
    with session_scope(app_engine(post.app)) as session:
        rows = session.exec(select(InboundMessage).order_by(InboundMessage.id)).all()
    assert [(r.sender, r.outcome, r.applied) for r in rows] == [
        (duel.player.email, "applied", [duel.first]),
        ("mallory@evil.example", "dropped", None)]
    result = CliRunner().invoke(main, ["mail", "log"], env=environment(settings))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split("\t")[1:5] == ["pipe", duel.player.email, duel.game_id, "applied"]
    assert lines[1] == f"\tapplied: {duel.first}"
    assert lines[2].split("\t")[1:6] == ["pipe", "mallory@evil.example", "-", "dropped",
                                         "mallory@evil.example is not registered"]
