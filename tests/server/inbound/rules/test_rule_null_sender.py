from server.inbound.rules import null_sender
from tests.server.inbound.rules.rule_mail import headers_of


def test_the_null_envelope_sender_is_never_answered():
    assert null_sender.check(headers_of(mail_from="")) is not None


def test_return_path_empty_as_an_mta_wrote_it():
    assert null_sender.check(headers_of("Return-Path: <>\r\n")) is not None


def test_either_null_sender_is_enough_and_a_real_one_is_a_persons():
    assert null_sender.check(headers_of("Return-Path: <>\r\n", mail_from="ada@example.org")) \
        is not None
    assert null_sender.check(headers_of("Return-Path: <ada@example.org>\r\n")) is None
    assert null_sender.check(headers_of(mail_from="ada@example.org")) is None


def test_no_from_address():
    assert null_sender.check(headers_of(sender="")) is not None
