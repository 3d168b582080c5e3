"""The lines a person typed in a reply, without what it quotes and without their signature.

Our own line classifier (issue 32, H1: mail-parser-reply's expressions were quadratic and a 44 KB
mail held the interpreter for 30 s). Each line is looked at a bounded number of times by
expressions that cannot backtrack far (`classify.py`), over text already cut to at most
`MAX_LINES` lines of `MAX_LINE_CHARS` characters, so the work is linear in the mail's size.

What it knows (`words.py`): `>`-quoting wherever it is (top-posting, bottom-posting as
Thunderbird and mutt do, interleaved), attribution lines ("On ... wrote:" in many languages,
run-on ones, mutt's "* Name <addr> [date]:"), Outlook's header blocks in any language (two
`Key: value` lines, one holding an address), "Original Message" separators (QQ Mail and
Foxmail's `原始邮件` included), our own "reply above this line" marker (`marker.py`), the `-- `
signature delimiter and the "Sent from my phone" lines of mobile clients.
"""

from server.inbound.quotes.classify import MAX_LINE_CHARS, MAX_LINES, typed_lines
from server.inbound.quotes.marker import REPLY_MARKER

__all__ = ["MAX_LINES", "MAX_LINE_CHARS", "REPLY_MARKER", "typed_lines"]
