"""gunicorn settings for the Iridescia API (used by the Docker image and the systemd unit).

Every value can be overridden from the environment, so one file serves both. The API processes are
stateless: all state is in PostgreSQL, so any number of them may run behind a load balancer.
"""

import multiprocessing
import os

from uvicorn_worker import UvicornWorker

from server.asgi import uvicorn_options

bind = os.environ.get("IRIDESCIA_BIND", "0.0.0.0:8000")

# The app is server.asgi's front ('server.asgi:create_asgi_app()'): uvicorn's event loop takes
# the connections, a long-poll (GET /games/{id}/events?wait=30) waits on it with no thread and no
# database connection, and every other request runs the Flask app in a pool of 8 threads
# (server.asgi.WSGI_THREADS). The rules engine is CPU-bound, so processes give the parallelism.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2))

# Longer than the longest long-poll (30 s) so a waiting request is never killed as hung.
timeout = int(os.environ.get("IRIDESCIA_WORKER_TIMEOUT", "60"))
graceful_timeout = 30
keepalive = 5  # uvicorn's timeout_keep_alive: an idle connection is closed after it

# Restart workers now and then so a slow leak or cache growth cannot grow without bound.
max_requests = int(os.environ.get("IRIDESCIA_MAX_REQUESTS", "5000"))
max_requests_jitter = max_requests // 10

# Do not preload: each worker opens its own database connections after the fork.
preload_app = False

# Logs go to stdout/stderr, one line per request, for journald, docker logs or a log shipper.
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("IRIDESCIA_LOG_LEVEL", "info")
# The common log format plus the duration in milliseconds, so slow requests stand out.
access_log_format = '%(h)s - - %(t)s "%(r)s" %(s)s %(B)s %(M)sms "%(a)s"'

# Trust X-Forwarded-* only from the reverse proxy in front (comma-separated addresses), and only
# when IRIDESCIA_TRUSTED_PROXIES says one is there: with 0 (the default) nobody's header is read,
# not even one sent from 127.0.0.1 (server.asgi.uvicorn_options).
_TRUSTED_PROXIES = int(os.environ.get("IRIDESCIA_TRUSTED_PROXIES", "0"))
_UVICORN = uvicorn_options(_TRUSTED_PROXIES,
                           os.environ.get("IRIDESCIA_FORWARDED_ALLOW_IPS", "127.0.0.1"))
forwarded_allow_ips = _UVICORN["forwarded_allow_ips"]


class Worker(UvicornWorker):
    """uvicorn's worker with our options: idle connections closed after 5 s (from their
    opening, not only between requests), at most 900 connections a process (one more request
    answers 503), X-Forwarded-For as above."""

    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS,
                     **{key: value for key, value in _UVICORN.items()
                        if key not in ("forwarded_allow_ips", "timeout_keep_alive")}}


worker_class = Worker
