"""One webhook POST, to the address the SSRF guard checked (server/webhooks/addresses.py).

The connection goes to ``Target.address``, never to a second lookup of the name; the Host header
and, for https, the TLS server name and certificate check use the name as written. No redirect
is followed (a 3xx is a failure like a 4xx), nothing is retried here (the outbox's backoff
does), and the whole exchange has a timeout.
"""

from __future__ import annotations

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


def post(target, body: bytes, headers: dict[str, str], timeout: float) -> int:
    """POST ``body`` to ``target``; its status when 2xx, else DeliveryFailed."""
    options = {"timeout": urllib3.Timeout(connect=timeout, read=timeout), "retries": False,
               "maxsize": 1, "block": False}
    if target.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(target.address, target.port, server_hostname=target.host,
                                           assert_hostname=target.host, cert_reqs="CERT_REQUIRED",
                                           **options)
    else:
        pool = urllib3.HTTPConnectionPool(target.address, target.port, **options)
    sent = {"Host": _host_header(target), "Content-Type": "application/json",
            "User-Agent": USER_AGENT, **headers}
    try:
        with pool:
            answer = pool.urlopen("POST", target.path, body=body, headers=sent, redirect=False,
                                  retries=False, preload_content=False, assert_same_host=False)
            try:
                text = answer.read(ANSWER_BYTES, decode_content=False)
            finally:
                answer.release_conn()
    except urllib3.exceptions.HTTPError as error:
        raise DeliveryFailed(f"could not reach {target.host} ({target.address}): {error}",
                             temporary=True) from None
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
