"""Notices are queued without their words and rendered when sent: the email still shows the game
as it was when the notice was queued, a notice that cannot be rendered is parked, and
`iridescia-server outbox` says what an unrendered message is about."""

from click.testing import CliRunner
from sqlmodel import select

from server.cli import main as server_cli
from server.mail import EmlTransport, MailSettings
from server.mail.outbox import flush_outbox
from server.notifications import render_messages
from server.storage.db import app_engine, read_only, session_scope
from server.storage.models import Outbox, utcnow


def _your_turn(app, game_id):
    """The first "your turn" notice of the game."""
    with session_scope(app_engine(app)) as session:
        return session.exec(
            select(Outbox)
            .where(Outbox.game_id == game_id, Outbox.kind == "your_turn")
            .order_by(Outbox.id)
        ).first()


def _flush(app, tmp_path):
    """Send what is due now (the API queued it at the real time)."""
    settings = MailSettings(outbox_dir=tmp_path / "sent")
    return flush_outbox(app_engine(app), EmlTransport(tmp_path / "sent"), settings, utcnow())


def test_a_turn_email_sent_after_the_game_moved_on_shows_the_game_when_it_was_queued(
    app, table, tmp_path
):
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob])
    table.play_turn(game_id)
    queued = _your_turn(app, game_id)
    assert queued.subject is None and queued.text_body is None  # queued small, not rendered
    with app.app_context(), session_scope(read_only(app_engine(app))) as session:
        at_once = render_messages(session, [queued])[queued.id]
    subject, text, _ = at_once
    assert f"put the game after the first word: iridescia reveal {game_id} " in text
    assert "Play by " in text

    table.play_turn(game_id)  # the game moves on: another turn, another board, another deadline
    assert table.game(game_id).version > queued.version
    with app.app_context():
        report = _flush(app, tmp_path)

    assert queued.id in report.sent
    sent = _your_turn(app, game_id)
    assert (sent.subject, sent.text_body) == (subject, text)
    eml = (tmp_path / "sent").glob(f"{game_id}_v{queued.version}_your_turn_*.eml")
    assert "your turn" in next(eml).read_text()


def test_a_notice_that_cannot_be_rendered_is_parked_and_the_rest_are_sent(
    app, table, tmp_path
):
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob])
    with session_scope(app_engine(app)) as session:
        started = session.exec(select(Outbox).where(Outbox.kind == "game_started")).all()
        broken = started[0]
        broken.version = 999  # a version the game never had
        session.add(broken)
    with app.app_context():
        report = _flush(app, tmp_path)

    assert report.parked == [broken.id] and report.sent == [started[1].id]
    with session_scope(app_engine(app)) as session:
        parked = session.get(Outbox, broken.id)
    assert parked.status == "parked" and f"game {game_id} has no version 999" in parked.last_error

    listed = CliRunner().invoke(
        server_cli, ["outbox"], env={"IRIDESCIA_DATABASE_URL": str(app.config["DATABASE_URL"])}
    )
    assert listed.exit_code == 0, listed.output
    assert listed.output.splitlines()[0].endswith(
        f"\tgame_started\t{parked.to_email}\t(not rendered yet: game {game_id} at version 999)"
    )
