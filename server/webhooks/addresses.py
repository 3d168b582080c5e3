"""Which webhook URLs the server may POST to: the SSRF guard.

A webhook URL is someone else's text that makes this server send a request, so it must not
reach the server's own network: only ``http`` and ``https``, no credentials in the URL, and a
host whose every address is global (not private, loopback, link-local, multicast, reserved,
unspecified, shared, an IPv6 unique-local or link-local one, nor an IPv4-mapped, NAT64
(``64:ff9b::/96``) or 6to4 (``2002::/16``) form of any of these: those reach the IPv4 address they
carry through a gateway). A host written in other digits or dots (``８.８.８.８``, fullwidth) is
read as its ASCII (IDNA) form, the one the lookup and the connection use. The check runs when the URL is set (its answer is the 422's message) and again at each
delivery, which then connects to the very address it checked: a name that resolves to a public
address when it is set and to 127.0.0.1 later (DNS rebinding) is refused, not followed.

``IRIDESCIA_WEBHOOK_ALLOW_PRIVATE=1`` lets non-global addresses through (tests, local use).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

FORMATS = ("json", "discord", "slack")
# IPv6 forms that carry an IPv4 address a gateway forwards to (RFC 6052 NAT64, RFC 3056 6to4);
# the local-use NAT64 prefix (RFC 8215) may put it anywhere, so it is refused as a whole.
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
LOCAL_NAT64 = ipaddress.IPv6Network("64:ff9b:1::/48")
MAX_URL_LENGTH = 2000


class WebhookUrlError(ValueError):
    """A URL the server will not POST to; the message says why and what to do. ``temporary``:
    a lookup that failed, which may work later (a delivery retries it)."""

    temporary = False


class UnresolvedHost(WebhookUrlError):
    temporary = True


@dataclass(frozen=True)
class Target:
    """Where one delivery goes: the URL's parts, and the address checked for it."""

    scheme: str
    host: str  # as written (for the Host header and TLS)
    port: int
    path: str  # with the query
    address: str  # the IP address connected to


def split_format(url: str, format: str | None) -> tuple[str, str]:
    """(the URL to store, its format): ``?format=discord|slack|json`` on the URL chooses the
    format when none is given, and is taken off the URL (Discord and Slack need not see it)."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    asked = [value for key, value in query if key == "format"]
    if not asked:
        return url, format or "json"
    if asked[-1] not in FORMATS:
        raise WebhookUrlError(f"format={asked[-1]!r} in the URL: use one of {', '.join(FORMATS)}")
    if format is not None and format != asked[-1]:
        raise WebhookUrlError(f"the URL says format={asked[-1]} and the body says {format!r}: "
                              "give one of them")
    rest = urlencode([(key, value) for key, value in query if key != "format"])
    return urlunsplit(parts._replace(query=rest)), asked[-1]


def parse(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path with query) of an acceptable URL, else WebhookUrlError."""
    if len(url) > MAX_URL_LENGTH:
        raise WebhookUrlError(f"the URL is {len(url)} characters long; at most {MAX_URL_LENGTH}")
    if any(ord(c) < 33 or ord(c) == 127 for c in url):
        raise WebhookUrlError("the URL contains spaces or control characters: encode them")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise WebhookUrlError(f"{url!r} is not a URL the server can use: {error}") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise WebhookUrlError(f"{url!r}: a webhook URL starts with https:// (or http://)")
    if parts.username is not None or parts.password is not None:
        raise WebhookUrlError("a webhook URL must not carry a user name or password; put a "
                              "token in its path or query instead")
    if not parts.hostname:
        raise WebhookUrlError(f"{url!r} names no host")
    host = ascii_host(parts.hostname)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return scheme, host, port or (443 if scheme == "https" else 80), path


def ascii_host(host: str) -> str:
    """``host`` as the lookup reads it: a name or address in other scripts' digits and dots
    (fullwidth ``８.８.８.８``) becomes its IDNA (ASCII) form, so the guard, the connection, the
    Host header and TLS all see the same host; one without an ASCII form is refused."""
    if host.isascii():
        return host
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError as error:
        raise WebhookUrlError(f"the host {host!r} has no ASCII (IDNA) form ({error}): write it "
                              "in ASCII letters and digits") from None


def refusal(address: str) -> str | None:
    """Why the server will not connect to ``address`` (None: it may)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 zone is not part of it
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in LOCAL_NAT64:
            return "a local-use NAT64 address"
        if ip in NAT64:
            ip = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        elif ip.sixtofour is not None:
            ip = ip.sixtofour
        elif ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "a loopback address"
    if ip.is_link_local:
        return "a link-local address"
    if ip.is_multicast:
        return "a multicast address"
    if ip.is_unspecified:
        return "the unspecified address"
    if ip.is_private:
        return "a private address"
    if not ip.is_global:
        return "a reserved (non-global) address"
    return None


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (an IP literal is its own)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise UnresolvedHost(f"the host {host!r} does not resolve ({error}): check the URL") \
            from None
    return list(dict.fromkeys(info[4][0] for info in infos))


def check(url: str, allow_private: bool) -> Target:
    """The target of ``url`` if the server may POST to it, else WebhookUrlError saying why.

    Every address the host resolves to must be allowed (a name with one private address among
    public ones is refused: which one a later lookup returns first is not ours to choose)."""
    scheme, host, port, path = parse(url)
    addresses = resolve(host, port)
    if not allow_private:
        for address in addresses:
            why = refusal(address)
            if why is not None:
                raise WebhookUrlError(
                    f"the host {host!r} resolves to {address}, {why}: a webhook must be "
                    "reachable on the public internet")
    return Target(scheme, host, port, path, addresses[0])
