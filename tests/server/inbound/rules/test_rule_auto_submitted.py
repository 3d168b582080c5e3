import pytest

from server.inbound.rules import auto_submitted, machine_written
from tests.server.inbound.rules.rule_mail import headers_of


@pytest.mark.parametrize("header", [
    "Auto-Submitted: auto-replied\r\n", "Auto-Submitted: auto-generated\r\n",
    "X-Autoreply: yes\r\n", "X-Autorespond: vacation\r\n", "X-Auto-Reply: 1\r\n",
])
def test_rfc_3834_and_auto_responder_headers_are_a_machines(header):
    assert auto_submitted.check(headers_of(header)) is not None


def test_auto_submitted_no_is_a_person():
    assert auto_submitted.check(headers_of("Auto-Submitted: no\r\n")) is None


def test_x_auto_response_suppress_alone_is_not_an_auto_reply():
    """Outlook sets it on mail people write (issue 26)."""
    assert machine_written(headers_of("X-Auto-Response-Suppress: All\r\n")) is None
