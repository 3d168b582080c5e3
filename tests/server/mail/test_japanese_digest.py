"""The daily digest in the reader's language (issue 30): a player who chose Japanese and the
digest reads it in Japanese, its day and deadline as Japanese writes them, text and HTML."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlmodel import select

from server.scheduler.tick import Ticker
from server.storage.db import app_engine, session_scope
from server.storage.models import User
from tests.server.users.test_mail_choices import _my_turn_in, _prefs, _rows

pytestmark = pytest.mark.clocked


def test_a_japanese_digest_text_and_html(app, table, clock):
    ada, bob = table.register("Ada"), table.register("Bob")
    answer = _prefs(table, ada, email="digest", digest_hour=8, time_zone="Asia/Tokyo",
                    language="ja")
    assert answer.status_code == 200, answer.get_json()
    game_id = table.new_game(ada, [bob], seed="digest-ja")
    _my_turn_in(table, game_id, ada, clock)
    ticker = Ticker(app, clock, name="test")
    ticker.tick()
    with session_scope(app_engine(app)) as session:
        due = session.exec(select(User.next_digest_at).where(User.id == ada.id)).one()
    clock.now = due + timedelta(minutes=1)
    assert ticker.tick().digests == [ada.id]
    [digest] = [r for r in _rows(app, ada.email) if r.kind == "digest"]
    day = re.escape(f"{due.year}年{due.month}月") + r"\d+日"
    assert re.fullmatch(rf"イリデシアの宝石：1ゲームであなたの手番です（{day}）", digest.subject), \
        digest.subject
    text = digest.text_body
    assert "Adaさん、こんにちは。" in text and re.search(rf"\n{day}、あなたを待っているゲーム：\n", text)
    # The deadline as Japanese writes it, in Tokyo's time, with the time left in Japanese.
    assert re.search(rf"ゲーム{game_id}：あなたの手番。\d{{4}}/\d{{2}}/\d{{2}} \d{{1,2}}:\d{{2}} "
                     r"\(Asia/Tokyo\)までに指してください（残り", text), text
    assert "毎日8:00（Asia/Tokyo）にこのまとめが届きます" in text
    for english in ("Hello", "Your games waiting", "your turn", "play by", "The board",
                    "You receive this digest"):
        assert english not in text, english
    html = digest.html_body
    assert '<html lang="ja">' in html and f"<strong>ゲーム{game_id}</strong>：あなたの手番。" in html
    assert "<code>notify every</code>" in html
    assert "Hello" not in html and "your turn" not in html and "The board" not in html
