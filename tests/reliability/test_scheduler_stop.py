"""Stopping ``iridescia-server scheduler`` the way a service manager does (SIGTERM) while it is
busy playing absent players' games: it finishes the work in hand, says so, and exits 0, and every
turn it committed is in its log (Python's default would end it between the commit and the log)."""

from __future__ import annotations

import os
import re
import signal
import time

from tests.reliability.helpers import absent_games, games_said, turns_played_for_absent_seats
from tests.reliability.processes import ServerProcess


def test_sigterm_lets_the_scheduler_finish_its_work_and_exit_cleanly(api, database_url, db,
                                                                    tmp_path):
    games = absent_games(api, db, 2)
    scheduler = ServerProcess(tmp_path, database_url, "scheduler",
                              settings={"IRIDESCIA_SCHEDULER_INTERVAL_SECONDS": "0.5"})
    scheduler.start()
    try:
        deadline = time.monotonic() + 60
        while "the server played its turn" not in scheduler.log(tail=None):
            assert time.monotonic() < deadline, scheduler.log()
            assert scheduler.process.poll() is None, scheduler.log()
            time.sleep(0.05)
        os.killpg(scheduler.process.pid, signal.SIGTERM)  # mid-game: more turns are due
        code = scheduler.process.wait(timeout=30)
    finally:
        scheduler.kill()
    log = scheduler.log(tail=None)
    assert code == 0, log
    assert re.search(r"scheduler \S+ stopping: finishing the work in hand\n(.*\n)*.*"
                     r"scheduler \S+ stopped\n", log), log[-2000:]
    said = (games_said(log, "is absent; the server played its turn", games)
            + games_said(log, "the server played the removal turn", games))
    assert said == turns_played_for_absent_seats(db, games) > 0
    assert "Traceback" not in log
