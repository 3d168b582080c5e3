"""Issue 32, M1: an account the operator disabled still played, posted table talk and got
answers by mail. Its mail is now dropped without a word, and nothing queued for it is sent."""

from sqlmodel import select

from server.operators import disable_user
from server.storage.db import app_engine, session_scope
from server.storage.models import Message, Outbox, User
from tests.server.inbound.post import reply


def _disable(app, email, clock):
    with session_scope(app_engine(app)) as session:
        disable_user(session, email, "abuse", "test", clock())
        session.commit()


def test_a_disabled_players_mail_neither_plays_nor_talks_nor_is_answered(app, post, table, duel,
                                                                         clock):
    _disable(app, duel.player.email, clock)
    before, sent = table.game(duel.game_id).version, post.count()
    played = post.ingest(reply(duel.mail, duel.first))
    talked = post.ingest(reply(duel.mail, "say let me play!"))
    post.deliver()
    assert (played.status, talked.status) == ("dropped", "dropped")
    assert "disabled by an operator" in played.detail
    assert table.game(duel.game_id).version == before
    with session_scope(app_engine(app)) as session:
        assert session.exec(select(Message).where(Message.game_id == duel.game_id)).all() == []
    assert post.count() == sent  # no answer


def test_nothing_queued_for_a_disabled_account_is_sent(app, post, table, duel, clock):
    """An answer queued before the account was disabled, or by any other path after it, is
    withheld when it is about to be sent."""
    _disable(app, duel.player.email, clock)
    with session_scope(app_engine(app)) as session:
        user = session.exec(select(User).where(User.email == duel.player.email)).one()
        session.add(Outbox(dedupe_key="late-answer", user_id=user.id, to_email=user.email,
                           kind="reply", subject="Re: your move", text_body="applied",
                           status="pending", next_attempt_at=clock(), created_at=clock()))
        session.commit()
    sent = post.count()
    post.deliver()
    assert post.count() == sent
    with session_scope(app_engine(app)) as session:
        row = session.exec(select(Outbox).where(Outbox.dedupe_key == "late-answer")).one()
    assert row.status != "sent" and "disabled by an operator" in (row.last_error or "")
