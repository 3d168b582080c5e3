"""Raw mail for the rule tests: a person's reply to a game mail, with the headers a test adds."""

from server.inbound.headers import MailHeaders


def headers_of(extra: str = "", subject: str = "Re: Gems of Iridescia q1h7sz6b",
               sender: str = "Ada <ada@example.org>", mail_from: str | None = None,
               content_type: str = "text/plain; charset=utf-8") -> MailHeaders:
    raw = (f"From: {sender}\r\nTo: play+x@iridescia.test\r\nSubject: {subject}\r\n"
           f"Message-ID: <1@example.org>\r\nContent-Type: {content_type}\r\n{extra}\r\n"
           "move 3c\r\n").encode()
    return MailHeaders.of(raw, mail_from)
