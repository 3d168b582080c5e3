"""A player's vacation: starting it, changing its end, ending it early, and what it does to
the games waiting for them (their turns' clocks stop and start again: server/games/holds)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from flask import current_app
from sqlmodel import select

from server import wakeups
from server.games.due_times import update_due_times
from server.http.errors import fail
from server.i18n import N_, Said
from server.storage.models import Game, Seat, User, Vacation
from server.vacations.allowance import day_start, days_by_year, used_in

# A vacation is planned at most this far ahead (a year's allowance would end it sooner anyway).
LONGEST_AHEAD = timedelta(days=366)


@dataclass(frozen=True)
class Allowance:
    year: int
    days_per_year: int
    used: int

    @property
    def left(self) -> int:
        return max(0, self.days_per_year - self.used)


def days_per_year() -> int:
    return int(current_app.config.get("VACATION_DAYS_PER_YEAR", 21))


def vacations_of(session, user: User) -> list[Vacation]:
    return list(session.exec(select(Vacation).where(Vacation.user_id == user.id)))


def allowance(session, user: User, now: datetime) -> Allowance:
    return Allowance(now.year, days_per_year(), used_in(vacations_of(session, user), now.year))


def is_away(user: User, now: datetime) -> bool:
    return user.away_until is not None and user.away_until > now


def summary(session, user: User, now: datetime) -> dict:
    """Whether the player is away and until when, and the days they have left this year (the
    API's answer, and the home page's)."""
    counted = allowance(session, user, now)
    here = not is_away(user, now)
    until = None if here else user.away_until
    message = ("you are not away" if here else
               f"away until {until.strftime('%Y-%m-%d %H:%M UTC')}: your turns wait for you")
    return {"away_until": until, "year": counted.year, "days_per_year": counted.days_per_year,
            "days_used": counted.used, "days_left": counted.left,
            "message": f"{message}; {counted.left} of {counted.days_per_year} vacation days "
                       f"left in {counted.year}"}


def _current(vacations: list[Vacation], now: datetime) -> Vacation | None:
    return next((v for v in vacations if v.starts_at <= now < v.ends_at), None)


# A vacation longer than the days left (by whether it is one day).
TOO_LONG = {
    False: N_("away until {until} is {days} days in {year}, and you have {left} of your {allowed} "
              "left that year (a year is the calendar year, days in UTC, today counted): come "
              "back sooner"),
    True: N_("away until {until} is {days} day in {year}, and you have {left} of your {allowed} "
             "left that year (a year is the calendar year, days in UTC, today counted): come "
             "back sooner"),
}


def start_vacation(session, user: User, until: date, now: datetime) -> Vacation:
    """Away from now until 00:00 UTC of `until` (a vacation already running gets this end
    instead); 422 saying what to do when the date is not ahead or the days are not left."""
    allowed = days_per_year()
    if allowed <= 0:
        fail(422, Said(N_("vacations are turned off on this server "
                          "(IRIDESCIA_VACATION_DAYS_PER_YEAR is 0)")))
    today = now.date()
    if until <= today:
        fail(422, Said(N_("{until} is not after today ({today}, UTC): give the day you are "
                          "back, e.g. {example}"), until=until.isoformat(),
                       today=today.isoformat(), example=(today + timedelta(days=7)).isoformat()))
    ends_at = day_start(until)
    if ends_at - now > LONGEST_AHEAD:
        fail(422, Said(N_("{until} is more than a year ahead: a vacation ends within {days} "
                          "days"), until=until.isoformat(), days=LONGEST_AHEAD.days))
    vacations = vacations_of(session, user)
    current = _current(vacations, now)
    starts_at = current.starts_at if current else now
    others = [v for v in vacations if v is not current]
    for year, days in sorted(days_by_year(starts_at, ends_at).items()):
        used = used_in(others, year)
        if used + days > allowed:
            fail(422, Said(TOO_LONG[days == 1], until=until.isoformat(), days=days, year=year,
                           left=max(0, allowed - used), allowed=allowed),
                 days_asked=days, days_left=allowed - used)
    if current is None:
        current = Vacation(user_id=user.id, starts_at=now, ends_at=ends_at)
    current.ends_at = ends_at
    session.add(current)
    user.away_until = ends_at
    session.add(user)
    session.flush()
    refresh_games(session, user, now)
    return current


def end_vacation(session, user: User, now: datetime) -> None:
    """Back now: the days not yet begun are given back; 409 when not away."""
    if not is_away(user, now):
        fail(409, Said(N_("you are not on vacation: `iridescia vacation --until YYYY-MM-DD` "
                          "starts one")))
    current = _current(vacations_of(session, user), now)
    if current is not None:
        current.ends_at = now
        session.add(current)
    user.away_until = None
    session.add(user)
    session.flush()
    refresh_games(session, user, now)


def refresh_games(session, user: User, now: datetime) -> list[Game]:
    """The user's active games whose decision is theirs get their due times again: stopped while
    they are away, running again (with the time they had left) when they are back."""

    games = list(session.exec(
        select(Game).join(Seat, Seat.game_id == Game.id)
        .where(Seat.user_id == user.id, Game.status == "active", Game.current_seat == Seat.seat)
    ))
    for game in games:
        update_due_times(session, game, None, now)
        # The scheduler sleeps until the next due time it knows of: tell it of the new one.
        wakeups.note(session, f"g:{game.id}", "due")
    return games
