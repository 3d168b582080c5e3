"""The line classifier (server/inbound/quotes): the typed lines of a reply in each client's
structure, the quote and signature cut, in time linear in the text."""

import pytest

from server.inbound.quotes import REPLY_MARKER, typed_lines

OURS = f"""{REPLY_MARKER}
Hello Ada,

It is your turn in game q1h7sz6b.

You may type now:
  move 3c
  mine
  end

--{" "}
Iridescia: reply to play. Unsubscribe: reply `stop`."""
# A mail from before the marker: the structure alone must cut it.
UNMARKED = OURS.split("\n", 1)[1]


def gt(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.splitlines())


def test_top_posting_under_a_gmail_attribution_keeps_only_the_new_lines():
    text = f"move 3c\nend\n\nOn Sun, Mar 1, 2026 at 12:00 PM Iridescia <play@x.test> wrote:\n{gt(UNMARKED)}"
    assert typed_lines(text) == ["move 3c", "end"]


def test_a_gmail_attribution_wrapped_over_two_lines_is_not_read():
    text = ("move 3c\n\nOn Sun, Mar 1, 2026 at 12:00 PM Iridescia <\nplay@x.test> wrote:\n"
            + gt(UNMARKED))
    assert typed_lines(text) == ["move 3c"]


@pytest.mark.parametrize("header", [
    "From: Iridescia <play@x.test>\nSent: Sunday, March 1, 2026 12:00 PM\nTo: Ada\nSubject: turn",
    "差出人: Iridescia <play@x.test>\n送信日時: 2026年3月1日 12:00\n宛先: Ada\n件名: turn",
    "发件人: Iridescia <play@x.test>\n发送时间: 2026年3月1日 12:00\n收件人: Ada\n主题: turn",
    "מאת: Iridescia <play@x.test>\nנשלח: יום ראשון 1 מרץ 2026 12:00\nאל: Ada\nנושא: turn",
    "Från: Iridescia <play@x.test>\nSkickat: den 1 mars 2026 12:00\nTill: Ada\nÄmne: turn",
    "Od: Iridescia <play@x.test>\nWysłano: niedziela, 1 marca 2026 12:00\nDo: Ada\nTemat: turn",
    "От: Iridescia <play@x.test>\nОтправлено: 1 марта 2026 г. 12:00\nКому: Ada\nТема: turn",
    "Feladó: Iridescia <play@x.test>\nElküldve: 2026. március 1. 12:00\nCímzett: Ada",
    "*From:* Iridescia\n*Sent:* Sunday, March 1, 2026 12:00 PM",
    "发件人： Iridescia\n发送时间： 2026-03-01 12:00\n收件人： Ada",
], ids=["en", "ja", "zh", "he", "sv", "pl", "ru", "hu-unknown", "bold", "foxmail"])
def test_outlook_header_blocks_in_any_language_end_the_reply(header):
    """Issue 32, M2: without `>`, the quoted mail's commands ran under headers in a language
    the parser lacked."""
    text = f"thanks\n\n________________________________\n{header}\n\n{UNMARKED}"
    assert typed_lines(text) == ["thanks"]
    assert typed_lines(f"thanks\n{header}\n\n{UNMARKED}") == ["thanks"]


@pytest.mark.parametrize("separator", [
    "-----Original Message-----", "------------------ 原始邮件 ------------------",
    "-----Ursprüngliche Nachricht-----", "-----Исходное сообщение-----",
])
def test_original_message_separators_end_the_reply(separator):
    assert typed_lines(f"move 3c\n\n{separator}\nIridescia wrote things\n{UNMARKED}") == ["move 3c"]


def test_our_marker_ends_the_reply_even_with_no_header_at_all():
    """A line quoted from our own mail never runs, whatever the client wrote above it."""
    assert typed_lines(f"move 3c\nSome client's words: here\n\n{OURS}") == ["move 3c"]


def test_bottom_posting_reads_the_commands_under_the_quote_and_not_our_footer():
    """Thunderbird and mutt: our quoted footer (`> -- `) was taken for the reply's signature
    and the commands under it were dropped (issue 26)."""
    thunderbird = (f"On 01/03/2026 12:00, Iridescia wrote:\n{gt(UNMARKED)}\n\nmove 3c\nend\n\n"
                   "-- \nAda Lovelace\nmove 9z")
    mutt = f"* Iridescia <play@x.test> [2026-03-01 12:00 +0000]:\n{gt(UNMARKED)}\n\nmove 3c\n"
    assert typed_lines(thunderbird) == ["move 3c", "end"]
    assert typed_lines(mutt) == ["move 3c"]


def test_interleaved_answers_keep_every_unquoted_line():
    text = "> You may type now:\nmove 3c\n> mine\nmine\n> end\nend"
    assert typed_lines(text) == ["move 3c", "mine", "end"]


@pytest.mark.parametrize("sign_off", [
    "Sent from Yahoo Mail on Android", "Sent from my iPhone", "Von meinem iPhone gesendet",
    "Envoyé de mon iPhone", "Enviado desde mi iPhone", "Skickat från min iPhone",
    "Get Outlook for Android", "iPhoneから送信", "发自我的iPhone",
])
def test_mobile_sign_offs_end_the_typed_text(sign_off):
    assert typed_lines(f"move 3c\n\n{sign_off}\nmove 9z") == ["move 3c"]


def test_yahoo_android_run_on_attribution_and_its_quote_are_not_read():
    run_on = ("move 3c\nend\n\nSent from Yahoo Mail on Android\n \n  On Sun, Mar 1, 2026 at "
              "12:00, Iridescia<play@x.test> wrote:   Hello Ada,  You may type now:   move 3c"
              "   mine   end")
    same_line = ("move 3c On Sun, Mar 1, 2026 at 12:00, Iridescia<play@x.test> wrote:   Hello "
                 "Ada,   mine")
    assert typed_lines(run_on) == ["move 3c", "end"]
    assert typed_lines(same_line) == ["move 3c"]


@pytest.mark.parametrize("attribution", [
    "Am So., 1. März 2026 um 12:00 Uhr schrieb Iridescia <play@x.test>:",
    "Le dim. 1 mars 2026 à 12:00, Iridescia a écrit :",
    "El dom, 1 mar 2026 a las 12:00, Iridescia escribió:",
    "Il giorno dom 1 mar 2026 alle ore 12:00 Iridescia ha scritto:",
    "Op zo 1 mrt 2026 om 12:00 schreef Iridescia:",
    "Den sön 1 mars 2026 kl 12:00 skrev Iridescia:",
    "W dniu 1.03.2026 o 12:00 Iridescia pisze:",
    "вс, 1 мар. 2026 г. в 12:00, Iridescia:",
    "Em dom., 1 de mar. de 2026 às 12:00, Iridescia escreveu:",
    "2026年3月1日(日) 12:00 Iridescia <play@x.test>:",
    "Iridescia <play@x.test> 于2026年3月1日周日 12:00写道：",
])
def test_attributions_in_many_languages_above_a_quote(attribution):
    assert typed_lines(f"move 3c\n\n{attribution}\n{gt(UNMARKED)}") == ["move 3c"]


def test_a_signature_under_the_dashes_is_not_read_and_a_plain_dash_line_is_not_one():
    assert typed_lines("move 3c\n-- \nAda\nmove 9z") == ["move 3c"]
    assert typed_lines("move 3c\n---\nend") == ["move 3c", "---", "end"]


def test_greetings_and_control_characters():
    assert typed_lines("Hi,\r\nmove\u202e 3c\x1b\r\n") == ["Hi,", "move 3c"]


def test_lines_are_bounded_in_number_and_length():
    from server.inbound.quotes import MAX_LINE_CHARS, MAX_LINES

    lines = typed_lines(("x" * (MAX_LINE_CHARS * 3) + "\n") * (MAX_LINES + 50))
    assert len(lines) == MAX_LINES and {len(line) for line in lines} == {MAX_LINE_CHARS}
