"""One webhook POST, to the address the SSRF guard checked (server/webhooks/addresses.py).

The connection goes to ``Target.address``, never to a second lookup of the name; the Host header
and, for https, the TLS server name and certificate check use the name as written. No redirect
is followed (a 3xx is a failure like a 4xx), nothing is retried here (the outbox's backoff
does), and the whole exchange has a deadline: a socket timeout bounds each read only, so a
receiver that trickled a byte per read held its delivery for 43 s with a 2 s timeout (issue 32,
M6); a timer now shuts the connection when the exchange passes ``timeout`` in all.
"""

from __future__ import annotations

import socket
import threading

import urllib3

# The answer is read only for the error message: a receiver cannot make the server hold more.
ANSWER_BYTES = 500
USER_AGENT = "Iridescia-Webhook/1"


class DeliveryFailed(Exception):
    """The receiver did not take the delivery. ``temporary``: worth retrying later."""

    def __init__(self, message: str, temporary: bool) -> None:
        super().__init__(message)
        self.temporary = temporary


def _host_header(target) -> str:
    host = f"[{target.host}]" if ":" in target.host else target.host
    default = 443 if target.scheme == "https" else 80
    return host if target.port == default else f"{host}:{target.port}"


class _Watched:
    """A connection pool's only connection, remembered so the deadline can shut its socket."""

    def __init__(self) -> None:
        self.connection = None
        self.cut_off = False

    def shut(self) -> None:
        self.cut_off = True
        sock = getattr(self.connection, "sock", None)
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # already closed: the exchange ended as the timer fired


def _pool(target, options: dict, watched: _Watched):
    base = urllib3.HTTPSConnectionPool if target.scheme == "https" else urllib3.HTTPConnectionPool

    class Pool(base):
        def _new_conn(self):  # noqa: ANN202 - urllib3's name
            watched.connection = super()._new_conn()
            return watched.connection

    if target.scheme == "https":
        return Pool(target.address, target.port, server_hostname=target.host,
                    assert_hostname=target.host, cert_reqs="CERT_REQUIRED", **options)
    return Pool(target.address, target.port, **options)


def post(target, body: bytes, headers: dict[str, str], timeout: float) -> int:
    """POST ``body`` to ``target``; its status when 2xx, else DeliveryFailed. The whole
    exchange (connecting, sending, the answer's head and first bytes) takes at most
    ``timeout`` seconds."""
    options = {"timeout": urllib3.Timeout(connect=timeout, read=timeout), "retries": False,
               "maxsize": 1, "block": False}
    watched = _Watched()
    pool = _pool(target, options, watched)
    sent = {"Host": _host_header(target), "Content-Type": "application/json",
            "User-Agent": USER_AGENT, **headers}
    deadline = threading.Timer(timeout, watched.shut)
    deadline.daemon = True
    deadline.start()
    try:
        with pool:
            answer = pool.urlopen("POST", target.path, body=body, headers=sent, redirect=False,
                                  retries=False, preload_content=False, assert_same_host=False)
            try:
                text = answer.read(ANSWER_BYTES, decode_content=False)
            finally:
                answer.release_conn()
    except (urllib3.exceptions.HTTPError, OSError) as error:
        if watched.cut_off:
            raise DeliveryFailed(f"{target.host} took longer than {timeout:g} s to take the "
                                 "delivery: cut off, retrying later", temporary=True) from None
        raise DeliveryFailed(f"could not reach {target.host} ({target.address}): {error}",
                             temporary=True) from None
    finally:
        deadline.cancel()
    status = answer.status
    if 200 <= status < 300:
        return status
    said = text.decode("utf-8", "replace").strip()
    message = f"{target.host} answered {status}" + (f": {said}" if said else "")
    if 300 <= status < 400:
        message += " (redirects are not followed: give the final URL)"
    # The receiver's trouble (5xx), too many requests, a timeout: it may take it later. Any
    # other answer (a 404 of a deleted Discord webhook, a 401) will not change by itself.
    raise DeliveryFailed(message, temporary=status >= 500 or status in (408, 425, 429))
