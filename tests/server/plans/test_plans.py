"""Plans (server/plans/, docs/plans.md): a player leaves the lines of their next turn by mail, on
the page or through the API (the CLI's test is tests/client/test_plan_command.py); the scheduler
plays them as soon as the turn comes, each while legal, and the your-turn mail says what was
played and what is left. Nobody else ever sees a plan."""

import json
import re

import engine
from server.storage.db import app_engine, session_scope
from server.storage.models import Plan
from tests.server.inbound.conftest import answer_to, flat
from tests.server.inbound.post import reply, text_of
from tests.server.web.conftest import signed_in

# A turn any seat can begin on the first rows, whatever the player before did there.
REVEALS = "reveal 1b or reveal 1c or reveal 1d or reveal 1e or reveal 2b or reveal 2c"
# A line that cannot be legal then: the plan stops at it, and it is left with what follows.
NOT_YET = "restore The Book of Iridescia"
PLAN = [REVEALS, NOT_YET, "end"]


def plan_row(app, game_id, seat):
    with session_scope(app_engine(app)) as session:
        row = session.get(Plan, (game_id, seat))
        return None if row is None else list(row.lines)


def turn_passes_to_the_planner(post, table, duel):
    """The player to act plays their turn through the API; the scheduler's tick follows."""
    table.play_turn(duel.game_id)
    post.deliver()


def the_planners_seat(duel):
    return 1 - duel.seat


def assert_played_and_told(post, table, duel, app):
    state = table.state(duel.game_id)
    seat = the_planners_seat(duel)
    assert engine.current_player(state) == seat  # the rest of the turn is theirs, as usual
    assert state.turn.phase != "reveal", "the plan's reveal was played"
    assert plan_row(app, duel.game_id, seat) is None  # a plan is played once
    turn_mails = [m for m in post.mail_to(duel.other.email)
                  if "your turn" in str(m["Subject"]).lower()]
    assert len(turn_mails) == 1  # the one that tells the plan, in place of the plain one
    mail = text_of(turn_mails[0])
    played = mail.split("Your plan played:\n", 1)[1]
    assert re.match(r"  - reveal \d\w\n", played), played
    assert f"Left of your plan, not played:\n  - {NOT_YET}\n  - end\n" in mail
    assert '(line 2, "restore The Book of Iridescia": you can restore relics only' in flat(mail)


def test_a_plan_by_mail_is_kept_then_played_when_the_turn_comes(post, table, duel, app):
    started = post.latest(duel.other.email, duel.game_id)
    outcome = post.ingest(reply(started, "Hi!\n" + "\n".join(PLAN) + "\nThanks"))
    post.deliver()
    answer = answer_to(post, duel.other.email)
    assert outcome.status == "planned", outcome
    assert "It is not your turn: your lines are kept as your plan" in answer
    assert f"Your plan:\n    {REVEALS}\n    {NOT_YET}\n    end\n" in answer
    assert plan_row(app, duel.game_id, the_planners_seat(duel)) == PLAN

    turn_passes_to_the_planner(post, table, duel)
    assert_played_and_told(post, table, duel, app)


def test_a_plan_by_the_api_is_shown_replaced_refused_and_played(post, table, duel, app):
    path = f"/api/v1/games/{duel.game_id}/plan"
    auth = {"Authorization": f"Bearer {duel.other.token}"}
    client = table.client
    assert client.get(path, headers=auth).status_code == 404
    first = client.put(path, json={"lines": ["end"]}, headers=auth)
    assert first.status_code == 200 and first.json["lines"] == ["end"]
    typo = client.put(path, json={"lines": [REVEALS, "mvoe 2f"]}, headers=auth)
    assert typo.status_code == 422
    assert typo.json["message"] == 'line 2, "mvoe 2f", is not a command: did you mean `move 2f`?'
    kept = client.put(path, json={"lines": PLAN}, headers=auth)
    assert kept.status_code == 200 and kept.json["source"] == "api"
    assert client.get(path, headers=auth).json["lines"] == PLAN
    mover = {"Authorization": f"Bearer {duel.player.token}"}
    its_turn = client.put(path, json={"lines": ["end"]}, headers=mover)
    assert its_turn.status_code == 409
    assert its_turn.json["message"] == (
        "it is your turn now: play your commands instead of planning them")

    turn_passes_to_the_planner(post, table, duel)
    assert_played_and_told(post, table, duel, app)


def test_a_plan_from_the_page_is_kept_and_played(post, table, duel, app):
    from tests.server.helpers import Player

    planner = Player(duel.other.id, duel.other.name, duel.other.email, duel.other.token)
    browser = signed_in(app, planner, f"/games/{duel.game_id}")
    page = browser.get(f"/games/{duel.game_id}").get_data(as_text=True)
    assert "Your plan for your next turn" in page
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    sent = browser.post(f"/games/{duel.game_id}/plan",
                        data={"csrf_token": token, "lines": "\r\n".join(PLAN)})
    assert sent.status_code == 303
    page = browser.get(f"/games/{duel.game_id}").get_data(as_text=True)
    assert f">{REVEALS}\n{NOT_YET}\nend</textarea>" in page
    assert plan_row(app, duel.game_id, the_planners_seat(duel)) == PLAN

    turn_passes_to_the_planner(post, table, duel)
    assert_played_and_told(post, table, duel, app)


def test_playing_any_command_clears_the_plan(post, table, duel, app):
    client = table.client
    path = f"/api/v1/games/{duel.game_id}/plan"
    auth = {"Authorization": f"Bearer {duel.other.token}"}
    assert client.put(path, json={"lines": PLAN}, headers=auth).status_code == 200
    seat = the_planners_seat(duel)
    with session_scope(app_engine(app)) as session:  # as if the turn had come and not played
        session.get(Plan, (duel.game_id, seat)).seat = duel.seat
    table.play_one(duel.game_id)
    assert plan_row(app, duel.game_id, duel.seat) is None


def test_no_plan_leaks_to_another_seat(post, table, duel, app):
    """The planner's lines reach no view, feed, export, page or mail of the other player."""
    marker = "move 9e or move 8d or move 7c"
    client = table.client
    auth = {"Authorization": f"Bearer {duel.other.token}"}
    mover = {"Authorization": f"Bearer {duel.player.token}"}
    assert client.put(f"/api/v1/games/{duel.game_id}/plan", json={"lines": [marker]},
                      headers=auth).status_code == 200
    seen = []
    for path in ("", "/view", "/legal", "/events", "/messages"):
        response = client.get(f"/api/v1/games/{duel.game_id}{path}", headers=mover)
        assert response.status_code == 200, path
        seen.append(json.dumps(response.json))
    seen.append(json.dumps(client.get(f"/api/v1/games/{duel.game_id}/view").json))  # public
    export = client.get(f"/api/v1/games/{duel.game_id}/export", headers=mover)
    seen.append(export.get_data(as_text=True))
    assert client.get(f"/api/v1/games/{duel.game_id}/plan", headers=mover).status_code == 404
    from tests.server.helpers import Player

    other = Player(duel.player.id, duel.player.name, duel.player.email, duel.player.token)
    browser = signed_in(app, other, f"/games/{duel.game_id}")
    seen.append(browser.get(f"/games/{duel.game_id}").get_data(as_text=True))
    seen.append(app.test_client().get(f"/games/{duel.game_id}").get_data(as_text=True))
    table.play_one(duel.game_id)  # a command: mail to both, none of it the plan
    post.deliver()
    seen += [text_of(mail) + str(mail) for mail in post.mail_to(duel.player.email)]
    for text in seen:
        assert marker not in text and "9e or move 8d" not in text
    assert plan_row(app, duel.game_id, the_planners_seat(duel)) == [marker]


def test_a_reply_with_a_typo_is_not_kept_as_a_plan(post, table, duel, app):
    started = post.latest(duel.other.email, duel.game_id)
    outcome = post.ingest(reply(started, f"{REVEALS}\nmvoe 2f\nend"))
    post.deliver()
    answer = flat(answer_to(post, duel.other.email))
    assert outcome.status == "stopped"
    assert ('your lines were not kept as your plan: line 2, "mvoe 2f", is not a command: did '
            "you mean `move 2f`?") in answer
    assert plan_row(app, duel.game_id, the_planners_seat(duel)) is None


def test_a_plan_is_dropped_by_mail(post, table, duel, app):
    started = post.latest(duel.other.email, duel.game_id)
    assert post.ingest(reply(started, REVEALS)).status == "planned"
    post.deliver()
    dropped = post.ingest(reply(post.answer(duel.other.email), "plan clear"))
    post.deliver()
    assert dropped.status == "answered"
    assert "Your plan is dropped." in answer_to(post, duel.other.email)
    assert plan_row(app, duel.game_id, the_planners_seat(duel)) is None


def test_a_plans_refusal_is_said_in_the_planners_language(post, table, duel, app):
    """By mail and through the API (issue 30): the line that is no command, its guess."""
    table._call("patch", "/users/me/preferences", duel.other, language="ja")
    started = post.latest(duel.other.email, duel.game_id)
    assert post.ingest(reply(started, f"{REVEALS}\nmvoe 2f\nend")).status == "stopped"
    post.deliver()
    answer = answer_to(post, duel.other.email)
    assert ("あなたの手番ではありません。送られた行は予定として保存できませんでした：\n"
            "    2行目「mvoe 2f」はコマンドではありません。`move 2f` のことですか？") in answer, answer
    typo = table.client.put(f"/api/v1/games/{duel.game_id}/plan", json={"lines": ["dance"]},
                            headers={"Authorization": f"Bearer {duel.other.token}"})
    assert typo.status_code == 422
    assert typo.json["message"] == (
        "1行目「dance」はコマンドではありません。コマンドは reveal, move, relocate, choose, give, "
        "discard-objective, mine, keep, reroll, modify, roll-market, buy, sell, play, restore, "
        "end, remove, undo です")
    assert plan_row(app, duel.game_id, the_planners_seat(duel)) is None
