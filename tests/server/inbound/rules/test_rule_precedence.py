import pytest

from server.inbound.rules import precedence
from tests.server.inbound.rules.rule_mail import headers_of


@pytest.mark.parametrize("value", ["bulk", "junk", "list", "auto_reply", "BULK"])
def test_machine_precedences(value):
    assert precedence.check(headers_of(f"Precedence: {value}\r\n")) is not None


def test_first_class_and_none_are_a_persons():
    assert precedence.check(headers_of("Precedence: first-class\r\n")) is None
    assert precedence.check(headers_of()) is None
