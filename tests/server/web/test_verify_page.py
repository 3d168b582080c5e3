"""The /verify page (server/web/verify_page.py): anyone drops a finished game's log on it, with
no sign-in and no JavaScript, and reads what matched or where it does not; and the join form's
word for the dice."""

from __future__ import annotations

import io
import json

from sqlmodel import select

from server.storage.db import app_engine, session_scope
from server.storage.models import Seat
from tests.client.test_offline import mixed_game, write_log
from tests.server.web.conftest import csrf_token, signed_in

WORDS = {"p1": "tolami", "p2": "veruko"}


def send(client, name: str, content: bytes):
    token = csrf_token(client.get("/verify").get_data(as_text=True))
    return client.post("/verify", data={"csrf_token": token, "log": (io.BytesIO(content), name)},
                       content_type="multipart/form-data")


def test_an_honest_log_is_checked_ok_without_signing_in(client, tmp_path):
    page = client.get("/verify")
    assert page.status_code == 200
    assert 'enctype="multipart/form-data"' in page.get_data(as_text=True)
    path = tmp_path / "g1.jsonl"
    write_log(path, mixed_game(WORDS), seed="server-7", words=WORDS)
    answer = send(client, "g1.jsonl", path.read_bytes())
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert "<h2>g1.jsonl: OK</h2>" in html
    assert ("<li>dice: sha256 of the server&#39;s seed and the players&#39; words in table order "
            "(p1 &#39;tolami&#39;, p2 &#39;veruko&#39;)</li>") in html


def test_a_log_whose_word_was_changed_does_not_match(client, tmp_path):
    path = tmp_path / "g1.jsonl"
    write_log(path, mixed_game(WORDS), seed="server-7", words={**WORDS, "p2": "other"})
    html = send(client, "g1.jsonl", path.read_bytes()).get_data(as_text=True)
    assert "<h2>g1.jsonl: does not match</h2>" in html
    assert "event #1 (game_started), from the start_game command at version 0: " in html


def test_what_the_log_says_is_shown_escaped(client, tmp_path):
    path = tmp_path / "g1.jsonl"
    write_log(path, mixed_game(WORDS), seed="server-7", words=WORDS)
    lines = path.read_text().splitlines()
    header = json.loads(lines[0]) | {"seed_rule": "<script>alert(1)</script>"}
    text = "\n".join([json.dumps(header), *lines[1:]]).encode()
    html = send(client, "<b>g1</b>.jsonl", text).get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html and "<b>g1</b>" not in html
    assert "the log&#39;s seed rule &#39;&lt;script&gt;alert(1)&lt;/script&gt;&#39; is unknown" in html


def test_a_file_that_is_no_log_is_a_clear_400(client):
    answer = send(client, "notes.txt", b"hello\n")
    assert answer.status_code == 400
    assert ("&#39;notes.txt&#39; is not a JSON-lines game log: Expecting value: line 1 column 1 "
            "(char 0): send the game&#39;s log as `iridescia log` writes it"
            ) in answer.get_data(as_text=True)
    assert send(client, "", b"").status_code == 400


def test_the_join_form_carries_a_word_for_the_dice(app, client, ada, bob):
    game = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    browser = signed_in(app, bob)
    home = browser.get("/").get_data(as_text=True)
    assert 'name="word" class="dice-word"' in home
    joined = browser.post("/join", data={"csrf_token": csrf_token(home),
                                         "code": game["join_code"], "word": "kesora-7"})
    assert joined.status_code == 303
    with session_scope(app_engine(app)) as session:
        assert session.exec(select(Seat.seed_contribution)
                            .where(Seat.user_id == bob.id)).one() == "kesora-7"


def send_in(client, language: str, name: str, content: bytes):
    """`send`, from a browser whose Accept-Language is `language`."""
    headers = {"Accept-Language": language}
    token = csrf_token(client.get("/verify", headers=headers).get_data(as_text=True))
    return client.post("/verify", data={"csrf_token": token, "log": (io.BytesIO(content), name)},
                       content_type="multipart/form-data", headers=headers)


def test_the_checks_lines_and_mismatch_are_in_the_pages_language(client, tmp_path):
    path = tmp_path / "g1.jsonl"
    write_log(path, mixed_game(WORDS), seed="server-7", words=WORDS)
    published = json.loads(path.read_text().splitlines()[0])["seed_hash"]
    html = send_in(client, "ja", "g1.jsonl", path.read_bytes()).get_data(as_text=True)
    assert f"<li>シード：sha256が公開されたハッシュ {published} と一致します</li>" in html
    assert ("<li>ダイス：サーバーのシードと手番順のプレイヤーの言葉のsha256（p1 &#39;tolami&#39;、"
            "p2 &#39;veruko&#39;）</li>") in html
    assert "<li>最終得点：再現したゲームと一致します</li>" in html
    assert "identical" not in html and "sha256 matches" not in html
    english = send_in(client, "en", "g1.jsonl", path.read_bytes()).get_data(as_text=True)
    assert f"<li>seed: sha256 matches the published hash {published}</li>" in english
    assert "<li>final scores: identical to the replayed game&#39;s</li>" in english
    write_log(path, mixed_game(WORDS), seed="server-7", words={**WORDS, "p2": "other"})
    html = send_in(client, "ja", "g1.jsonl", path.read_bytes()).get_data(as_text=True)
    assert "イベント#1（game_started、バージョン0のstart_gameコマンドによるもの）：" in html
