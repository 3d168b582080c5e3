"""A player who chose Japanese reads their your-turn mail in Japanese, text and HTML; the other
player of the same game still reads English."""

import re
from datetime import UTC, datetime

import engine
from server import create_app
from server.scheduler.tick import Ticker
from tests.server.scheduler.helpers import Table


def _choose(table, player, **changes):
    answer = table.client.patch("/api/v1/users/me/preferences", json=changes,
                                headers={"Authorization": f"Bearer {player.token}"})
    assert answer.status_code == 200, answer.json


def test_a_japanese_your_turn_mail_text_and_html(db_url, smtp_server):
    handler, port = smtp_server
    app = create_app({"DATABASE_URL": db_url, "SMTP_URL": f"smtp://127.0.0.1:{port}?security=none",
                      "MAIL_FROM": "Iridescia <games@iridescia.test>",
                      "BASE_URL": "https://iridescia.test"})
    table = Table(app)
    ada, bob = table.register("Ada"), table.register("Bob")
    game_id = table.new_game(ada, [bob], rhom=False)
    first = table.player_at(game_id, engine.current_player(table.state(game_id)))
    second = bob if first is ada else ada
    _choose(table, second, language="ja", time_zone="Asia/Tokyo")
    ticker = Ticker(app, lambda: datetime.now(UTC), name="test")
    ticker.tick()
    handler.received.clear()

    table.play_turn(game_id)
    ticker.tick()
    ticker.tick()

    [mail] = handler.received
    assert mail.recipients == [second.email]
    # The news of the subject in Japanese too: "Bobが眩いダイナマイトを購入 — あなたの手番（ターン2） (ID)".
    assert mail.message["Subject"].endswith(f"あなたの手番（ターン2） ({game_id})")
    assert not re.search(r"[a-z]{3,}", mail.message["Subject"].replace(first.name, "")
                         .replace(game_id, ""))
    text = mail.message.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert f"\n{second.name}さん、こんにちは。\n\nゲーム{game_id}であなたの手番です。\n" in text
    assert "前回の手番以降の出来事：\n" in text and f"\n  ターン1：{first.name}\n" in text
    assert "のタイルを獲得" in text  # the other's turn, narrated in Japanese
    assert "今入力できるコマンド（1行に1コマンドで返信してください）：\n  reveal " in text
    assert f"今できること：iridescia legal {game_id}" in text
    # The deadline in Japanese writing and the reader's time zone: 2026/12/03 11:05 (Asia/Tokyo).
    assert re.search(r"\d{4}/\d{2}/\d{2} \d{1,2}:\d{2} \(Asia/Tokyo\)（残り", text), text
    for english in ("Hello", "Since your last turn", "What you may type", "Play by", "collected"):
        assert english not in text
    # Who plays at the deadline, by the level's Japanese name; the board's table of players
    # under Japanese headings, its lists parted by "、".
    assert "そのときは代理の上級ボットが指します。" in text
    assert "\n   プレイヤー      位置    金 倉庫" in text and "Coins" not in text
    assert "遺物        " in text and "）, " not in text
    html = mail.message.get_body(("html",)).get_content()
    assert '<html lang="ja">' in html
    assert 'ゲーム<a href="' in html and f'>{game_id}</a>であなたの手番です。' in html
    assert "<h3>前回の手番以降の出来事</h3>" in html and ">宝石市場（ダイスの目）</h3>" in html
    assert "Hello" not in html and "Since your last turn" not in html
    assert "代理の<strong>上級</strong>ボット" in html
    # Beside the picture, the panels in words: the reader's panel, the markets, the alt text.
    assert f"{second.name}（あなた）</strong>" in html and "<li>遺物：なし</li>" in html
    assert "<li>王室トークン：なし</li>" in html and "アメジスト 2（サプライ" in html
    assert re.search(r'alt="[^"]*：[^"]*点、[^"]*金、倉庫', html)
    for english in ("points,", "coins", "Relics:", "Royalty token", "the airship", "supply",
                    "step.", "(you)"):
        assert english not in html, english

    # The other player, who chose nothing, reads English on their turn.
    handler.received.clear()
    table.play_turn(game_id)
    ticker.tick()
    ticker.tick()
    [english] = handler.received
    assert english.recipients == [first.email]
    assert english.message["Subject"].endswith(f"your turn 3 ({game_id})")
    assert "Since your last turn:" in english.message.get_body(("plain",)).get_content()
