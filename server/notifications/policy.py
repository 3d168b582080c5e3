"""Which notifications a change of the game calls for: a pure function of plain values.

The kinds, and who gets them:
- `game_started`      every human, when the log's first events are appended;
- `your_turn`         the human the decision passes to, unless they are the one who just acted,
                      their seat is absent (the server plays it at once), or it is a removal turn
                      the server plays at once (no grace period, and the player did not ask to
                      choose their own removals);
- `game_over`         every human, with the scores;
- `reminder`          the human to act, every reminder interval while they have not acted;
- `deadline_warning`  the human to act, once, before the deadline;
- `played_for_you`    the human whose turn the server played (deadline passed or seat absent).

Every notice has a dedupe key naming the game, the version it is about, the kind and the seat, so
the same notice can never be queued twice (the outbox's key is unique).
"""

from collections.abc import Sequence
from dataclasses import dataclass

KINDS = ("game_started", "your_turn", "game_over", "reminder", "deadline_warning", "played_for_you")
# What each email preference lets through. "reminders" still hears about what needs them: the game
# starting and ending, reminders, warnings and turns played for them; only every-turn mail stops.
ALLOWED_BY_PREFERENCE = {
    "every_turn": frozenset(KINDS),
    "reminders": frozenset(KINDS) - {"your_turn"},
    # The day's digest tells of the turns (server/scheduler/digests.py): no mail per turn, no
    # reminders; the rest (start, end, warning, a turn played for them) as usual.
    "digest": frozenset(KINDS) - {"your_turn", "reminder"},
    "none": frozenset(),
}


@dataclass(frozen=True)
class Participant:
    seat: int
    kind: str  # "human" | "rhom"
    user_id: int | None
    absent: bool = False
    choose_removals: bool = False

    @property
    def is_human(self) -> bool:
        return self.kind == "human" and self.user_id is not None


@dataclass(frozen=True)
class Decision:
    """Who must act and on what (engine.current_player / engine.pending_kind); None when over."""

    seat: int | None
    kind: str | None


@dataclass(frozen=True)
class Notice:
    kind: str
    seat: int
    user_id: int
    dedupe_key: str


def _key(game_id: str, version: int, kind: str, seat: int, extra: str = "") -> str:
    return f"{game_id}/v{version}/{kind}/seat{seat}{extra}"


def after_events(
    game_id: str,
    participants: Sequence[Participant],
    before: Decision,
    after: Decision,
    event_types: Sequence[str],
    actor_seat: int | None,
    version: int,
    removal_grace: bool,
) -> list[Notice]:
    """The notices for the events just appended, which brought the game to `version`.

    `actor_seat` is the seat whose player sent the command, None when the server acted on its own
    (the Rhom, an automatic removal, a turn past its deadline)."""
    humans = [p for p in participants if p.is_human]
    if "game_started" in event_types:
        return [
            Notice(
                "game_started", p.seat, p.user_id, _key(game_id, version, "game_started", p.seat)
            )
            for p in humans
        ]
    if after.seat is None:
        return [
            Notice("game_over", p.seat, p.user_id, _key(game_id, version, "game_over", p.seat))
            for p in humans
        ]
    if after == before or after.seat == actor_seat:
        return []
    to_act = next((p for p in humans if p.seat == after.seat), None)
    if to_act is None or to_act.absent:
        return []
    if after.kind == "removal" and not (removal_grace or to_act.choose_removals):
        return []
    return [
        Notice(
            "your_turn",
            to_act.seat,
            to_act.user_id,
            _key(game_id, version, "your_turn", to_act.seat),
        )
    ]


# A turn is named by its start time (`turn_started_at` as a Unix timestamp): reminders and the
# warning belong to the turn, however many commands the player has sent in it.
def _turn_key(game_id: str, turn: int, kind: str, seat: int, extra: str = "") -> str:
    return f"{game_id}/t{turn}/{kind}/seat{seat}{extra}"


def reminder(game_id: str, participant: Participant, turn: int, number: int) -> Notice:
    """The `number`-th reminder of the turn that started at `turn`."""
    return Notice(
        "reminder",
        participant.seat,
        participant.user_id,
        _turn_key(game_id, turn, "reminder", participant.seat, f"/{number}"),
    )


def deadline_warning(game_id: str, participant: Participant, turn: int) -> Notice:
    return Notice(
        "deadline_warning",
        participant.seat,
        participant.user_id,
        _turn_key(game_id, turn, "deadline_warning", participant.seat),
    )


def played_for_you(game_id: str, participant: Participant, turn: int) -> Notice:
    """The server played the turn that started at `turn` for this participant."""
    return Notice(
        "played_for_you",
        participant.seat,
        participant.user_id,
        _turn_key(game_id, turn, "played_for_you", participant.seat),
    )


def wanted(notice: Notice, preference: str) -> bool:
    return notice.kind in ALLOWED_BY_PREFERENCE.get(preference, ALLOWED_BY_PREFERENCE["every_turn"])
