from server.inbound.rules import delivery_status
from tests.server.inbound.rules.rule_mail import headers_of


def test_a_multipart_report_is_a_dsn():
    report = 'multipart/report; report-type=delivery-status; boundary="b"'
    assert delivery_status.check(headers_of(content_type=report)) is not None


def test_x_failed_recipients():
    assert delivery_status.check(headers_of("X-Failed-Recipients: ada@example.org\r\n")) \
        is not None


def test_a_multipart_reply_is_not():
    assert delivery_status.check(headers_of(content_type='multipart/alternative; boundary="b"'))\
        is None
