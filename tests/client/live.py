"""The real server for end-to-end CLI tests: `server.create_app` on a migrated temporary SQLite
database, served over real HTTP on 127.0.0.1 at a free port, with the automatic turns (the Rhom,
removal turns) played by a background loop as the scheduler would."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime

from werkzeug.serving import make_server


class LiveServer:
    def __init__(self, tmp_path, database_url: str | None = None):
        """On its own SQLite database, or on ``database_url`` (migrated already)."""
        from server import create_app
        from server.storage.db import get_engine
        from server.storage.migrate import upgrade

        self.database_url = database_url or f"sqlite:///{tmp_path / 'iridescia.db'}"
        if database_url is None:
            upgrade(self.database_url)
        self.app = create_app({"DATABASE_URL": self.database_url, "TESTING": True,
                               "RATE_LIMIT": 1_000_000})
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.db = get_engine(self.database_url)
        self.stopping = threading.Event()
        self.threads = [
            threading.Thread(target=self.server.serve_forever, daemon=True),
            threading.Thread(target=self._play_automatic_turns, daemon=True),
        ]
        for thread in self.threads:
            thread.start()

    def mailed_code(self, email: str) -> str:
        """The code of the confirmation link the server mailed to ``email`` (what a player
        passes to `iridescia confirm --code`)."""
        from tests.accounts import mailed_code

        return mailed_code(self.db, email)

    def _play_automatic_turns(self):
        from server.scheduler.automatic import play_due_turns

        while not self.stopping.is_set():
            play_due_turns(self.db, datetime.now(UTC))
            time.sleep(0.05)

    def close(self):
        from server.storage.db import dispose_engine

        self.stopping.set()
        self.server.shutdown()
        for thread in self.threads:
            thread.join(timeout=10)
        dispose_engine(self.database_url)
