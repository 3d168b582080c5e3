"""`IRIDESCIA_INBOUND_REQUIRE_AUTH`: what the operator's own mail server must have found before a
mail is acted on, read from the Authentication-Results headers (RFC 8601) that carry the
operator's authserv-id, `IRIDESCIA_INBOUND_AUTHSERV_ID` (issue 32, M8: any topmost header was
trusted, even one the sender wrote when the relay added none). Parsed by `authres`.

The mode's default: `dkim` whenever an authserv-id is configured (a relay that checks DKIM stands
in front of the server), else `none`.
"""

from __future__ import annotations

MODES = ("none", "dkim", "spf")


class AuthenticationSettingError(ValueError):
    """IRIDESCIA_INBOUND_REQUIRE_AUTH and IRIDESCIA_INBOUND_AUTHSERV_ID do not fit together."""


def mode_of(config) -> str:
    """The mode in force: the setting, else `dkim` with an authserv-id and `none` without."""
    mode = str(config.get("INBOUND_REQUIRE_AUTH") or "").strip().lower()
    authserv_id = str(config.get("INBOUND_AUTHSERV_ID") or "").strip()
    if not mode:
        return "dkim" if authserv_id else "none"
    if mode not in MODES:
        raise AuthenticationSettingError(
            f"IRIDESCIA_INBOUND_REQUIRE_AUTH must be one of {', '.join(MODES)}, not {mode!r}")
    if mode != "none" and not authserv_id:
        raise AuthenticationSettingError(
            f"IRIDESCIA_INBOUND_REQUIRE_AUTH={mode} needs IRIDESCIA_INBOUND_AUTHSERV_ID: the "
            "authserv-id your mail server writes first in its Authentication-Results header "
            "(e.g. mx.example.org); headers with any other id are the sender's and prove nothing")
    return mode


def _aligned(domain: str, sender_domain: str) -> bool:
    domain, sender_domain = domain.lower().strip("."), sender_domain.lower().strip(".")
    return bool(domain) and (sender_domain == domain or sender_domain.endswith("." + domain))


def authserv_id_of(header: str) -> str:
    """The authserv-id a header starts with (its optional version dropped)."""
    return header.partition(";")[0].strip().split()[0].lower() if header.strip() else ""


def refusal(headers: tuple[str, ...] | list[str], sender: str, mode: str,
            authserv_id: str = "") -> str | None:
    """None when the mail passes `mode`, else why it does not. Only the topmost header written
    by `authserv_id` is read."""
    if mode == "none":
        return None
    ours = [h for h in headers if authserv_id_of(h) == authserv_id.strip().lower()]
    if not ours:
        return (f"it has no Authentication-Results header from {authserv_id}, and this server "
                f"requires {mode}")
    import authres

    try:
        parsed = authres.AuthenticationResultsHeader.parse(f"Authentication-Results: {ours[0]}")
    except Exception:  # authres raises its own syntax errors for a header it cannot read
        return "its Authentication-Results header cannot be read"
    sender_domain = sender.rpartition("@")[2]
    for result in parsed.results:
        if result.method != mode or result.result != "pass":
            continue
        wanted = ("header", "d") if mode == "dkim" else ("smtp", "mailfrom")
        for prop in result.properties:
            if (prop.type, prop.name) == wanted and _aligned(str(prop.value).rpartition("@")[2],
                                                             sender_domain):
                return None
    return f"{mode} did not pass for {sender_domain or 'its From'}"
