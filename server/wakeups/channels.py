"""How wake-ups travel between processes: Redis pub/sub, PostgreSQL LISTEN/NOTIFY, or, on SQLite
without Redis, a watcher of the database file.

Each channel has one listener thread per process (started when the first waiter subscribes),
never one per waiter, and one connection for it. A lost connection is retried every second;
when it is back, every waiter is woken (it looks again: what it missed is in the database).

- `RedisChannel`: after each commit the topics are PUBLISHed (one round trip); the listener
  SUBSCRIBEs. Works on either database and across hosts.
- `PostgresChannel`: the topics are sent with `pg_notify` inside the writing transaction, so
  PostgreSQL delivers them at the commit and drops them on a rollback; the listener LISTENs.
- `SqliteWatcher`: SQLite has no messages between processes. Commits in this process wake
  its waiters at once (the hub); for the others, the listener reads `PRAGMA data_version`
  every 50 ms (it changes when any other connection commits) and, when it changed, reads the
  versions of the games waited on and the outbox's and due times' marks, and wakes who is
  concerned.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

from server.wakeups.hub import Hub

log = logging.getLogger(__name__)
CHANNEL = "iridescia_wakeups"
RETRY_SECONDS = 1.0
SQLITE_POLL_SECONDS = 0.05


class Channel:
    notifies_in_transaction = False  # PostgreSQL: topics go out with the writing transaction

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def publish(self, topics: set[str]) -> None:
        """After a commit: tell the other processes (this one's hub is woken by the caller)."""

    def start(self, hub: Hub) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, args=(hub,), daemon=True,
                                            name=f"wakeups-{type(self).__name__}")
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self, hub: Hub) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                self.listen(hub, self._stop)
                failures = 0
            except Exception as error:  # the server went away: retry, wake everyone after
                failures += 1
                if failures == 1 or failures % 60 == 0:
                    log.warning("wake-ups: %s lost (%s); retrying every %ss", self.describe(),
                                error, RETRY_SECONDS)
                self._stop.wait(RETRY_SECONDS)

    def listen(self, hub: Hub, stop: threading.Event) -> None:
        raise NotImplementedError

    def describe(self) -> str:
        return type(self).__name__


class RedisChannel(Channel):
    def __init__(self, url: str) -> None:
        super().__init__()
        import redis

        self.url = url
        self._client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self._publish_failures = 0

    def describe(self) -> str:
        from sqlalchemy.engine import make_url

        return f"Redis {make_url(self.url).render_as_string(hide_password=True)}"

    def publish(self, topics: set[str]) -> None:
        try:
            self._client.publish(CHANNEL, " ".join(sorted(topics)))
            self._publish_failures = 0
        except Exception as error:  # committed already: the waiters' timeouts are the net
            self._publish_failures += 1
            if self._publish_failures == 1 or self._publish_failures % 1000 == 0:
                log.warning("wake-ups: could not publish to %s: %s", self.describe(), error)

    def listen(self, hub: Hub, stop: threading.Event) -> None:
        pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        try:
            pubsub.subscribe(CHANNEL)
            hub.wake_all()
            while not stop.is_set():
                message = pubsub.get_message(timeout=1.0)
                if message is not None and message["type"] == "message":
                    hub.wake(message["data"].decode().split())
        finally:
            pubsub.close()


class PostgresChannel(Channel):
    notifies_in_transaction = True

    def __init__(self, database_url: str) -> None:
        super().__init__()
        from sqlalchemy.engine import make_url

        url = make_url(database_url).set(drivername="postgresql")
        self._dsn = url.render_as_string(hide_password=False)
        self._safe = url.render_as_string(hide_password=True)

    def describe(self) -> str:
        return f"PostgreSQL LISTEN on {self._safe}"

    def listen(self, hub: Hub, stop: threading.Event) -> None:
        import psycopg

        with psycopg.connect(self._dsn, autocommit=True, connect_timeout=5) as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            hub.wake_all()
            while not stop.is_set():
                for notify in connection.notifies(timeout=1.0):
                    hub.wake(notify.payload.split())


class SqliteWatcher(Channel):
    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def describe(self) -> str:
        return f"SQLite watcher of {self.path}"

    def listen(self, hub: Hub, stop: threading.Event) -> None:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            marks = self._marks(connection)
            last = connection.execute("PRAGMA data_version").fetchone()[0]
            hub.wake_all()
            while not stop.wait(SQLITE_POLL_SECONDS):
                version = connection.execute("PRAGMA data_version").fetchone()[0]
                if version == last:
                    continue
                last = version
                woken = self._changed_games(connection, hub.games_seen())
                now = self._marks(connection)
                if now[0] != marks[0]:
                    woken.append("mail")
                if now[1] != marks[1]:
                    woken.append("due")
                if now[2] != marks[2]:
                    woken.append("webhooks")
                marks = now
                hub.wake(woken)
        finally:
            connection.close()

    @staticmethod
    def _marks(connection: sqlite3.Connection) -> tuple:
        """What says that mail was queued (the newest id), a due time moved (the earliest) or a
        webhook delivery was queued (the newest id)."""
        newest_mail = connection.execute("SELECT max(id) FROM outbox").fetchone()[0]
        newest_delivery = connection.execute(
            "SELECT max(id) FROM webhook_deliveries").fetchone()[0]
        earliest_due = connection.execute(
            "SELECT min(automatic_due_at) FROM games WHERE automatic_due_at IS NOT NULL"
        ).fetchone()[0]
        return newest_mail, earliest_due, newest_delivery

    @staticmethod
    def _changed_games(connection: sqlite3.Connection, seen: dict[str, int]) -> list[str]:
        changed = []
        ids = list(seen)
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for game_id, version in connection.execute(
                f"SELECT id, version FROM games WHERE id IN ({marks})", chunk
            ):
                if version > seen[game_id]:
                    changed.append(f"g:{game_id}")
        return changed


class LocalOnly(Channel):
    """An in-memory SQLite database: one process, the hub is all there is."""

    def start(self, hub: Hub) -> None:
        pass

