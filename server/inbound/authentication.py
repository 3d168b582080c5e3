"""`IRIDESCIA_INBOUND_REQUIRE_AUTH`: what the receiving mail server must have found before a mail
is acted on, read from the topmost Authentication-Results header (RFC 8601; the one our own
mail server added: the lower ones came with the message and prove nothing). Parsed by `authres`.
"""

from __future__ import annotations

MODES = ("none", "dkim", "spf")


def _aligned(domain: str, sender_domain: str) -> bool:
    domain, sender_domain = domain.lower().strip("."), sender_domain.lower().strip(".")
    return bool(domain) and (sender_domain == domain or sender_domain.endswith("." + domain))


def refusal(header: str | None, sender: str, mode: str) -> str | None:
    """None when the mail passes `mode`, else why it does not."""
    if mode == "none":
        return None
    if mode not in MODES:
        raise ValueError(f"IRIDESCIA_INBOUND_REQUIRE_AUTH must be one of {', '.join(MODES)}, "
                         f"not {mode!r}")
    if not header:
        return f"it has no Authentication-Results header, and this server requires {mode}"
    import authres

    try:
        parsed = authres.AuthenticationResultsHeader.parse(f"Authentication-Results: {header}")
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
