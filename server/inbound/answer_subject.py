"""The subject of the answer to a reply tells its news, like the game's own mails: what the reply
did, then what comes next, then the game: "You restored the Emerald Tablet — Ben's turn 8
(q1h7sz6b)", "Stopped at line 2: mvoe 2f — your turn 7 (q1h7sz6b)".

The answer stays in the player's thread through its In-Reply-To and References headers (mail
clients thread by those, server/mail/reply_headers.py), so its subject needs no "Re:".
"""

from __future__ import annotations

from server import i18n
from server.i18n import N_
from server.notifications.headline import news, subject_with_news


def what_it_did(report, planned, names: dict[int, str], seat: int,
                language: str | None = None) -> str | None:
    """What the reply did, told first: the line refused, the plan kept, the most telling event
    of the commands applied ("you restored the Emerald Tablet") or the lines played; None when
    it played nothing (only words such as `explain` or `help`)."""
    _ = lambda message: i18n.gettext(language, message)  # noqa: E731
    if report.refused is not None:
        return _(N_("stopped at line {number}: {line}")).format(
            number=report.refused.number, line=report.refused.text)
    if isinstance(planned, str):
        return _(N_("plan not kept"))
    if planned:
        return _(N_("plan kept for your next turn"))
    if not report.played:
        return None
    mine = {**names, seat: _(N_("you"))}
    told = news([row["payload"] for row in report.events if row["payload"].get("type")
                 != "game_ended"], mine, None, language)
    return told or _(N_("you played {lines}")).format(lines=", ".join(report.played))


def what_comes_next(view: dict | None, names: dict[int, str], seat: int,
                    language: str | None = None) -> str:
    """Whose turn it is now, by name and turn number, or who won."""
    _ = lambda message: i18n.gettext(language, message)  # noqa: E731
    if view is None:
        return _(N_("the game has not started"))
    if view.get("over"):
        outcome = view.get("outcome") or {}
        seats = outcome.get("seats") if isinstance(outcome, dict) else outcome
        if isinstance(seats, dict):
            seats = [dict(value, seat=int(key)) for key, value in seats.items()]
        winners = [names.get(e.get("seat", i), "?") for i, e in enumerate(seats or [])
                   if e.get("rank") == 1]
        if not winners:
            return _(N_("Game over: nobody won"))
        return _(N_("Game over: {winners} won")).format(winners=_(N_(" and ")).join(winners))
    turn = view.get("turn") or {}
    number, to_act = turn.get("number"), turn.get("seat")
    if to_act == seat:
        return _(N_("your turn {number}")).format(number=number)
    return _(N_("{name}'s turn {number}")).format(name=names.get(to_act, "?"), number=number)


def answer_subject(game_id: str, report, planned, context: dict, seat: int,
                   language: str | None = None) -> str:
    """"WHAT IT DID — WHAT COMES NEXT (GAME)", capitalised and kept short."""
    names = context.get("names") or {}
    return subject_with_news(what_it_did(report, planned, names, seat, language),
                             what_comes_next(context.get("view"), names, seat, language),
                             game_id, language)
