"""The account mails and the invitation in the recipient's language (issue 30), text and HTML:
a player who chose Japanese gets their confirmation link and new-token link in Japanese; an
invitation to an address whose account chose Japanese is Japanese, to a stranger English."""

from __future__ import annotations

import re

from sqlmodel import select

from server.storage.db import app_engine, session_scope
from server.storage.models import Outbox, User, utcnow

LATIN = re.compile(r"[A-Za-z]{3,}")


def _mails(app, kind: str) -> list[Outbox]:
    with session_scope(app_engine(app)) as session:
        return list(session.exec(select(Outbox).where(Outbox.kind == kind).order_by(Outbox.id)))


def _japanese(client, player) -> None:
    answer = client.patch("/api/v1/users/me/preferences", json={"language": "ja"},
                          headers=player.headers)
    assert answer.status_code == 200, answer.json


def _words_left(text: str, name: str) -> list[str]:
    """The Latin words of `text` besides links, commands, the player's and the server's name."""
    text = re.sub(r"https?://\S+|iridescia (?:recover|confirm) --code \S+|\S+@\S+", "", text)
    text = text.replace(name, "")
    return [word for word in LATIN.findall(text) if word not in ("Iridescia", "API")]


def test_a_japanese_player_gets_the_confirmation_mail_in_japanese(client, app, ada, bob):
    _japanese(client, ada)
    with session_scope(app_engine(app)) as session:  # her mail bounced: she confirms it again
        session.get(User, ada.id).email_bouncing_at = utcnow()
    asked = client.post("/api/v1/users/me/verification", headers=ada.headers)
    assert asked.status_code in (200, 202), asked.json
    mine = [m for m in _mails(app, "verify_email") if m.to_email == ada.email]
    mail = mine[-1]
    assert mail.subject == "Iridescia のメールアドレスの確認"
    assert mail.text_body.startswith(f"{ada.name}さん、こんにちは。\n\n")
    assert f"Iridescia に {ada.email} を登録しました" in mail.text_body
    link = re.search(r"\n    (https?://\S+/verify\?code=\S+)\n", mail.text_body).group(1)
    assert "時間有効です" in mail.text_body and _words_left(mail.text_body, ada.name) == []
    assert '<html lang="ja">' in mail.html_body and f'<a href="{link}">' in mail.html_body
    assert f"<p>{ada.name}さん、こんにちは。</p>" in mail.html_body
    assert "Hello" not in mail.html_body and "registered" not in mail.html_body
    # Cy chose nothing: his confirmation (sent when he registers) is English.
    client.post("/api/v1/users", json={"name": "Cy", "email": "cy@example.org"})
    [his] = [m for m in _mails(app, "verify_email") if m.to_email == "cy@example.org"]
    assert his.subject == "Confirm your address for Iridescia"
    assert his.text_body.startswith("Hello Cy,\n") and '<html lang="en">' in his.html_body


def test_a_japanese_player_gets_the_new_token_link_in_japanese(client, app, ada):
    _japanese(client, ada)
    assert client.post("/api/v1/users/recover", json={"email": ada.email}).status_code == 202
    [mail] = _mails(app, "recover_token")
    assert mail.subject == "Iridescia の新しいトークン"
    assert f"{ada.email} の新しい API トークンが求められました。" in mail.text_body
    assert "またはコマンドラインクライアントで：\n\n    iridescia recover --code " in mail.text_body
    assert _words_left(mail.text_body, ada.name) == []
    assert "<code>iridescia recover --code " in mail.html_body
    assert "token is unchanged" not in mail.html_body and "トークンは変わりません" in mail.html_body


def test_an_invitation_is_in_the_language_of_the_invited_account(client, app, ada, bob):
    _japanese(client, bob)
    game = client.post("/api/v1/games", json={"seats": 3}, headers=ada.headers).json
    for email in (bob.email, "carol@example.org"):
        answer = client.post(f"/api/v1/games/{game['id']}/invitations", json={"email": email},
                             headers=ada.headers)
        assert answer.status_code == 201 and answer.json["mailed"], answer.json
    to_bob, to_carol = _mails(app, "invitation")
    assert to_bob.subject == f"{ada.name}さんから「イリデシアの宝石」への招待"
    assert f"ゲーム{game['id']}にあなたを招待しています。" in to_bob.text_body
    assert "\n    join\n" in to_bob.text_body and '<html lang="ja">' in to_bob.html_body
    assert "<p><code>join</code></p>" in to_bob.html_body
    assert to_carol.subject == f"{ada.name} invites you to a game of Gems of Iridescia"
    assert "invites you to play" in to_carol.text_body and '<html lang="en">' in to_carol.html_body


def test_an_aborted_games_mail_is_in_each_players_language(client, app, ada, bob):
    from server.operators import abort_game
    from server.storage.models import utcnow
    from tests.server.play import create_started_game

    _japanese(client, ada)
    game = create_started_game(client, [ada, bob])
    with session_scope(app_engine(app)) as session:
        abort_game(session, game["id"], "サーバーの不具合", "operator:test", utcnow())
    to_ada, to_bob = sorted(_mails(app, "game_aborted"), key=lambda m: m.to_email)
    assert to_ada.subject == f"イリデシアの宝石 {game['id']}：ゲームは中止されました"
    assert to_ada.text_body == (f"サーバーの管理者がゲーム{game['id']}を中止しました。\n\n"
                                "理由：サーバーの不具合\n\nこのゲームではもう手を指せません。\n")
    assert '<html lang="ja">' in to_ada.html_body and "理由：サーバーの不具合" in to_ada.html_body
    assert to_bob.subject == f"Gems of Iridescia {game['id']}: the game was aborted"
    assert "version" not in to_bob.text_body  # players see no versions


def test_registering_in_japanese_mails_the_confirmation_in_japanese_and_keeps_it(client, app):
    """The command line (LANG=ja: Accept-Language ja) or a Japanese page registers: the
    confirming mail is Japanese, and so is the account from then on; English asks nothing."""
    from tests.server.web.conftest import csrf_token

    answer = client.post("/api/v1/users", json={"name": "綾", "email": "aya@example.org"},
                         headers={"Accept-Language": "ja,en;q=0.5"})
    assert answer.status_code == 202, answer.json
    page = app.test_client()
    form = page.get("/register", headers={"Accept-Language": "ja"}).get_data(as_text=True)
    done = page.post("/register", headers={"Accept-Language": "ja"}, data={
        "csrf_token": csrf_token(form), "name": "健", "email": "ken@example.org"})
    assert done.status_code == 200
    assert client.post("/api/v1/users", json={"name": "Al", "email": "al@example.org"},
                       headers={"Accept-Language": "en"}).status_code == 202
    mails = {m.to_email: m for m in _mails(app, "verify_email")}
    for email in ("aya@example.org", "ken@example.org"):
        assert mails[email].subject == "Iridescia のメールアドレスの確認"
    assert mails["al@example.org"].subject == "Confirm your address for Iridescia"
    with session_scope(app_engine(app)) as session:
        languages = {u.email: u.language for u in session.exec(select(User))}
    assert languages == {"aya@example.org": "ja", "ken@example.org": "ja", "al@example.org": None}
