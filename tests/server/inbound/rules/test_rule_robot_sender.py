import pytest

from server.inbound.rules import robot_sender
from tests.server.inbound.rules.rule_mail import headers_of


@pytest.mark.parametrize("sender", ["MAILER-DAEMON@mx.example.org", "postmaster@example.org",
                                    "no-reply@example.org", "bounces+123@lists.example.org"])
def test_robot_addresses(sender):
    assert robot_sender.check(headers_of(sender=sender)) is not None


def test_a_persons_address():
    assert robot_sender.check(headers_of(sender="noreen@example.org")) is None
