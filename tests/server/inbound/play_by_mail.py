"""A player who only has a mailbox: reads the server's latest email, picks a line from "You may
type now" (the one the greedy engine policy would play, so games end), replies with it."""

from __future__ import annotations

import json
import random

from click.testing import CliRunner

import engine
from engine.bots.policies import greedy_policy
from engine.text import notation
from server.plans.store import seat_names
from server.storage.db import app_engine, session_scope
from tests.server.inbound.post import reply, typeable


class MailPlayer:
    """`send(raw, to, sender)` is the way in: SMTP, the pipe command or IMAP."""

    def __init__(self, post, table, address: str, send):
        self.post, self.table, self.address, self.send = post, table, address, send
        self.rng = random.Random(7)
        self.mails_sent = 0

    def play_one(self, game_id: str, seat: int) -> None:
        state = self.table.state(game_id)
        latest = self.post.latest(self.address, game_id)
        choices = typeable(latest)
        if not choices:  # an email without the list: ask for it by mail
            self.send(reply(latest, "legal", sender=self.address), str(latest["Reply-To"]),
                      self.address)
            self.mails_sent += 1
            self.post.deliver()
            latest = self.post.latest(self.address, game_id)
            choices = typeable(latest)
        # The list names players by name (`give amethyst --to Ada`): the line that reads back
        # as the policy's command.
        command = notation.canonical(greedy_policy(state, seat, self.rng))
        with session_scope(app_engine(self.table.app)) as session:
            names = seat_names(session, game_id)
        # A tile is listed by its printed name (`--discard-tile 'Desert Emerald'`), which the
        # seat's own view resolves to the one it holds, as the server's reading does.
        view = engine.view(state, seat)
        line = next((choice for choice in choices
                     if notation.parse(choice, seat, view=view, names=names) == command), None)
        assert line is not None, (notation.format(command, names), choices, latest["Subject"])
        raw = reply(latest, line, sender=self.address)
        self.send(raw, str(latest["Reply-To"]), self.address)
        self.mails_sent += 1
        self.post.deliver()


def play_to_the_end(post, table, game_id: str, mail_players: dict[int, MailPlayer],
                    limit: int = 3000) -> None:
    """Until the game is over: a seat in `mail_players` plays by mail, any other human through
    the API (the organiser), the Rhom by the scheduler (each `post.deliver()` is a tick)."""
    for _ in range(limit):
        state = table.state(game_id)
        if engine.is_terminal(state):
            return
        seat = engine.current_player(state)
        if seat in mail_players and engine.pending_kind(state) not in ("rhom", "removal"):
            mail_players[seat].play_one(game_id, seat)
        elif not table.play_one(game_id):
            post.deliver()  # the Rhom's turn or a removal: the scheduler plays it
    raise AssertionError(f"game {game_id} did not end in {limit} steps")


def verify_export(table, game_id: str, player, tmp_path) -> str:
    """`iridescia verify` on the game's export; its output."""
    from client.cli import cli

    export = table._call("get", f"/games/{game_id}/export", player)
    path = tmp_path / f"{game_id}.json"
    path.write_text(json.dumps(export))
    result = CliRunner().invoke(cli, ["verify", "--file", str(path)])
    assert result.exit_code == 0, result.output
    return result.output
