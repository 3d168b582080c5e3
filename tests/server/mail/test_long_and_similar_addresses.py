"""Issue 16, findings 10 and 11: a valid address of 251 to 254 characters (RFC 5321's limit) can
be invited on both databases (its dedupe key overflowed a 200-character column on PostgreSQL: a
500), and every mail is its own .eml file: addresses that differ only in characters a file name
cannot hold (``a+b@``, ``a_b@``) or only after the 180th character no longer overwrite each
other's invitation."""

from datetime import UTC, datetime, timedelta

from server.mail import EmlTransport, MailSettings
from server.mail.outbox import flush_outbox, list_messages
from server.storage.db import get_engine, session_scope
from tests.accounts import sign_up


def _address(length: int, last: str = "d") -> str:
    """A valid address of ``length`` characters: a 64-character local part and labels of 63."""
    domain_tail = length - 64 - 1 - 64 - 64 - len(".org")
    return f"{'a' * 64}@{'b' * 63}.{'c' * 63}.{'d' * (domain_tail - 1)}{last}.org"


def _invite(client, headers, game_id, email):
    return client.post(f"/api/v1/games/{game_id}/invitations", json={"email": email},
                       headers=headers)


def test_long_and_look_alike_addresses_each_get_one_invitation_file(app, db_url, tmp_path):
    client = app.test_client()
    ada = sign_up(client, "Ada", "ada@example.org")  # confirmed: the inviter's mail goes out
    headers = {"Authorization": f"Bearer {ada['token']}"}
    game = client.post("/api/v1/games", json={"seats": 4}, headers=headers).json
    addresses = [_address(251), _address(254), _address(254, last="e"),
                 "a+b@example.org", "a_b@example.org"]
    assert [len(a) for a in addresses[:3]] == [251, 254, 254]

    for email in addresses:
        invited = _invite(client, headers, game["id"], email)
        assert invited.status_code == 201, (len(email), invited.json)
    assert _invite(client, headers, game["id"], addresses[1]).status_code == 201  # again: no mail
    engine = get_engine(db_url)
    with session_scope(engine) as session:
        assert sorted(row.to_email for row in list_messages(session, None)) == sorted(addresses)

    outbox = tmp_path / "mail"
    settings = MailSettings(from_address="Iridescia <games@iridescia.test>", outbox_dir=outbox)
    report = flush_outbox(engine, EmlTransport(outbox), settings,
                          datetime.now(UTC) + timedelta(seconds=1))

    assert len(report.sent) == len(addresses) and report.parked == []
    files = sorted(outbox.glob("*.eml"))
    assert len(files) == len(addresses), [f.name for f in files]
    recipients = sorted(next(line for line in f.read_text().splitlines()
                             if line.startswith("To:")) for f in files)
    assert len(set(recipients)) == len(addresses)
    assert all(f.name.startswith(f"invite_{game['id']}_") for f in files), files
    assert any(f.name.startswith(f"invite_{game['id']}_a_b_example.org_") for f in files), files
    assert all(len(f.name) <= 160 for f in files)
