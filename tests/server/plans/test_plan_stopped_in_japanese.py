"""A plan stopped by a refusal (issue 30): the your-turn mail says why in its reader's language,
the rule's or the notation's reason kept as a template and its values in the outbox row
(server/i18n/stored.py), not as English; a row kept before, with its English, still reads."""

from __future__ import annotations

from tests.server.inbound.post import text_of
from tests.server.plans.test_plans import NOT_YET, REVEALS, turn_passes_to_the_planner


def squashed(text: str) -> str:
    return "".join(text.split())


def planned_then_played(post, table, duel, lines: list[str], language: str) -> str:
    table._call("patch", "/users/me/preferences", duel.other, language=language)
    auth = {"Authorization": f"Bearer {duel.other.token}"}
    kept = table.client.put(f"/api/v1/games/{duel.game_id}/plan", json={"lines": lines},
                            headers=auth)
    assert kept.status_code == 200, kept.json
    before = len(post.mail_to(duel.other.email))
    turn_passes_to_the_planner(post, table, duel)
    mails = post.mail_to(duel.other.email)[before:]
    assert mails, "no your-turn mail"
    return text_of(mails[-1])


def test_a_plan_stopped_by_a_rule_says_why_in_japanese(post, table, duel):
    mail = planned_then_played(post, table, duel, [REVEALS, NOT_YET, "end"], "ja")
    assert squashed('(2行目「restore The Book of Iridescia」：遺物の復元は、タイルに移動した後でなければ'
                    'できません)') in squashed(mail), mail
    assert "you can restore relics only" not in mail


def test_a_plan_stopped_by_a_line_the_notation_cannot_read_says_why_in_japanese(post, table,
                                                                                 duel):
    mail = planned_then_played(post, table, duel, [REVEALS, "sell ruby 2", "end"], "ja")
    assert squashed("(2行目「sell ruby 2」：'ruby' は宝石ではありません：amethyst、citrine、"
                    "emerald、sapphire のどれかです（書き方：sell GEM COUNT）)") in squashed(mail), mail


def test_the_same_plan_stopped_reads_in_english_for_an_english_reader(post, table, duel):
    mail = planned_then_played(post, table, duel, [REVEALS, "sell ruby 2", "end"], "en")
    assert squashed("(line 2, \"sell ruby 2\": 'ruby' is not a gem: use amethyst, citrine, "
                    "emerald, sapphire (write: sell GEM COUNT))") in squashed(mail), mail
