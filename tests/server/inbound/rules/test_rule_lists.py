import pytest

from server.inbound.rules import lists
from tests.server.inbound.rules.rule_mail import headers_of


@pytest.mark.parametrize("header", [
    "List-Id: Gamers <gamers.lists.example.org>\r\n",
    "List-Unsubscribe: <mailto:leave@lists.example.org>\r\n",
    "List-Post: <mailto:gamers@lists.example.org>\r\n",
])
def test_list_mail_without_precedence_is_a_lists(header):
    """Issue 26 / 32 L3: a List-Id-only list post had its commands played."""
    assert lists.check(headers_of(header)) is not None


def test_a_reply_is_no_list_mail():
    assert lists.check(headers_of("In-Reply-To: <2@iridescia.test>\r\n")) is None
