"""The HTTP layer: one ``requests`` session, the bearer token, retries and readable errors.

Every failure becomes a ``click.ClickException`` subclass whose message a player can act on, so
no command ever shows a traceback. Reads and game commands are retried on connection errors;
a game command keeps its ``Idempotency-Key`` across retries, so a retry can never play a move
twice.
"""

from __future__ import annotations

import json
import time
import uuid

import click
import requests

from client.i18n import _, language
from client.terminal_text import printable, printable_data

API_PREFIX = "/api/v1"
# Seconds to wait before each retry after a connection error; tests shorten this.
RETRY_DELAYS = (0.3, 1.0, 2.0)
# Gateway answers while the app restarts; safe to repeat for reads and keyed commands.
RETRY_STATUSES = (502, 503, 504)
CONNECT_TIMEOUT = 5.0
READ_TIMEOUT = 30.0
# Lists are read in pages of the server's largest size; a bound on pages stops a server that
# always names a next one.
PAGE_SIZE = 100
MAX_PAGES = 1000


class ApiError(click.ClickException):
    """The server answered with an error; ``status`` is the HTTP code."""

    def __init__(self, status: int, message: str, details: dict | None = None):
        self.status = status
        self.reason = message
        self.details = details or {}
        super().__init__(self.describe())

    def describe(self) -> str:
        return _("the server answered {status}: {reason}").format(status=self.status,
                                                                  reason=self.reason)


class NotAuthorized(ApiError):
    def describe(self) -> str:
        return _("the server did not accept your token ({reason}). Run `iridescia register`, "
                 "or set IRIDESCIA_TOKEN to a valid token.").format(reason=self.reason)


class Forbidden(ApiError):
    def describe(self) -> str:
        return _("not allowed: {reason}").format(reason=self.reason)


class NotFound(ApiError):
    def describe(self) -> str:
        return _("not found: {reason}").format(reason=self.reason)


class Rejected(ApiError):
    """422: the rules engine refused the command; the reason is the engine's."""

    def describe(self) -> str:
        return _("rejected: {reason}").format(reason=self.reason)


class Stale(ApiError):
    """409: somebody acted since the version we sent."""

    @property
    def current_version(self) -> int | None:
        value = self.details.get("current_version")
        return int(value) if value is not None else None

    def describe(self) -> str:
        # The server's reason names versions, which an integrator wants and a player never reads.
        if self.current_version is not None:
            return _("the game moved on before your command arrived: nothing was sent")
        return _("conflict: {reason}").format(reason=self.reason)


class Unreachable(click.ClickException):
    def __init__(self, server: str, cause: Exception):
        self.server = server
        super().__init__(
            f"cannot reach the server at {server} ({type(cause).__name__}). "
            "Is it running? Check the address with `iridescia config` or set IRIDESCIA_SERVER."
        )


class NotLoggedIn(click.ClickException):
    def __init__(self, profile: str):
        super().__init__(
            f"no token for profile {profile!r}: run `iridescia register --name NAME --email EMAIL` "
            "or set IRIDESCIA_TOKEN"
        )


_ERRORS_BY_STATUS = {401: NotAuthorized, 403: Forbidden, 404: NotFound, 409: Stale, 422: Rejected}


def error_from_response(response: requests.Response) -> ApiError:
    try:
        body = printable_data(response.json())
    except ValueError:
        body = None
    if isinstance(body, dict):
        message = str(body.get("message") or body.get("status") or response.reason)
        details = body.get("details") if isinstance(body.get("details"), dict) else {}
        errors = body.get("errors")
        if errors and not details:
            details = {"errors": errors}
            message = f"{message}: {errors}"
    else:
        first_line = (response.text or response.reason or "").strip().splitlines()
        message = printable(first_line[0][:200] if first_line else str(response.reason))
        details = {}
    cls = _ERRORS_BY_STATUS.get(response.status_code, ApiError)
    return cls(response.status_code, message, details)


class ApiClient:
    """Talks to one server as one user (or anonymously, for registration)."""

    def __init__(
        self,
        server: str,
        token: str | None = None,
        *,
        profile: str = "default",
        session: requests.Session | None = None,
    ):
        self.server = server.rstrip("/")
        self.token = token
        self.profile = profile
        self.session = session or requests.Session()

    def _url(self, path: str) -> str:
        return f"{self.server}{API_PREFIX}{path}"

    def request(
        self,
        method: str,
        path: str,
        *,
        json: dict | None = None,
        params: dict | None = None,
        headers: dict | None = None,
        auth: bool = True,
        retry: bool | None = None,
        read_timeout: float = READ_TIMEOUT,
        with_headers: bool = False,
    ):
        """Send one request and return the decoded JSON body (None for an empty body); with
        ``with_headers``, (body, the answer's headers)."""
        # The server's own words (errors, card texts) in the language of LANG (client/i18n.py).
        all_headers = {"Accept": "application/json", "Accept-Language": language(),
                       **(headers or {})}
        if auth:
            if not self.token:
                raise NotLoggedIn(self.profile)
            all_headers["Authorization"] = f"Bearer {self.token}"
        # Reads are always safe to repeat; writes only with an idempotency key.
        if retry is None:
            retry = method == "GET" or "Idempotency-Key" in all_headers
        attempts = (0.0, *RETRY_DELAYS) if retry else (0.0,)
        last_error: Exception | None = None
        for attempt, delay in enumerate(attempts, start=1):
            if delay:
                time.sleep(delay)
            try:
                response = self.session.request(
                    method,
                    self._url(path),
                    json=json,
                    params=params,
                    headers=all_headers,
                    timeout=(CONNECT_TIMEOUT, read_timeout),
                )
            except (requests.ConnectionError, requests.Timeout) as exc:
                last_error = exc
                continue
            if response.status_code in RETRY_STATUSES and attempt < len(attempts):
                # A proxy in front of a restarting server: the request did not reach the app.
                last_error = error_from_response(response)
                continue
            if response.status_code >= 400:
                raise error_from_response(response)
            if response.status_code == 204 or not response.content:
                return (None, response.headers) if with_headers else None
            try:
                # Every string in it may have been written by another person: see terminal_text.
                body = printable_data(response.json())
                return (body, response.headers) if with_headers else body
            except ValueError as exc:
                raise click.ClickException(
                    _("the server at {server} did not answer JSON for {method} {path}").format(server=self.server, method=method, path=path)
                ) from exc
        raise Unreachable(self.server, last_error)

    def get(self, path: str, **kwargs):
        return self.request("GET", path, **kwargs)

    def get_every_page(self, path: str, page_size: int | None = None) -> list:
        """Every item of a paginated list (GET /games): page after page, as long as the
        answer's X-Pagination names a next one."""
        items: list = []
        seen: set = set()
        page = 1
        for _page in range(MAX_PAGES):
            params = {"page": page, "page_size": page_size or PAGE_SIZE}
            body, headers = self.request("GET", path, params=params, with_headers=True)
            for item in body or []:
                key = item.get("id") if isinstance(item, dict) else None
                if key is None or key not in seen:  # a game may move up a page meanwhile
                    seen.add(key)
                    items.append(item)
            try:
                following = json.loads(headers.get("X-Pagination") or "{}").get("next_page")
            except (ValueError, AttributeError):
                following = None
            if not isinstance(following, int) or following <= page:
                break
            page = following
        return items

    def post(self, path: str, body: dict | None = None, **kwargs):
        return self.request("POST", path, json=body if body is not None else {}, **kwargs)

    def patch(self, path: str, body: dict, **kwargs):
        return self.request("PATCH", path, json=body, **kwargs)

    def put(self, path: str, body: dict, **kwargs):
        return self.request("PUT", path, json=body, **kwargs)

    def delete(self, path: str, **kwargs):
        return self.request("DELETE", path, **kwargs)

    def send_command(self, game_id: str, command: dict, expected_version: int) -> dict:
        """POST one game command; retried on connection errors under one idempotency key."""
        key = str(uuid.uuid4())
        return self.post(
            f"/games/{game_id}/commands",
            {"command": command, "expected_version": expected_version},
            headers={"Idempotency-Key": key},
        )
