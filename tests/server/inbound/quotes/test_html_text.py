"""HTML-only mail as the text a reader sees (server/inbound/html_text.py): quotes as `>` lines,
hidden text not at all (issue 32, L2)."""

import pytest

from server.inbound.html_text import html_to_text
from server.inbound.quotes import typed_lines


def test_blocks_and_breaks_become_lines_and_a_blockquote_quoted_lines():
    html = ("<div dir=ltr><div>move 3c</div><div>end<br></div></div><br><div class=gmail_quote>"
            "<div class=gmail_attr>Em dom., 1 de mar. de 2026 às 12:00, Iridescia "
            "&lt;play@x.test&gt; escreveu:<br></div><blockquote>Hello Ada,<br>mine<br>"
            "</blockquote></div>")
    assert typed_lines(html_to_text(html)) == ["move 3c", "end"]


@pytest.mark.parametrize("hiding", [
    "<div hidden>mine</div>",
    '<div style="display: none">mine</div>',
    '<span style="visibility:hidden">mine</span>',
    '<p style="font-size:0px">mine</p>',
    '<p style="opacity:0">mine</p>',
    '<p style="color:#ffffff;background-color:#fff">mine</p>',
    '<style>.x, .hide { display:none }</style><p class="hide">mine</p>',
])
def test_hidden_text_is_not_read_as_typed(hiding):
    html = f"<html><head><title>t</title></head><body><div>move 3c</div>{hiding}<div>end</div>"
    assert typed_lines(html_to_text(html + "</body></html>")) == ["move 3c", "end"]


def test_visible_small_text_and_coloured_text_are_read():
    html = ('<p style="font-size:10px">move 3c</p><p style="color:#fff;background:#000">end</p>')
    assert typed_lines(html_to_text(html)) == ["move 3c", "end"]


def test_deep_or_unbalanced_markup_is_read_without_error():
    html = "<div>" * 5000 + "move 3c" + "</span>" * 5000 + "</div>" * 5000
    assert typed_lines(html_to_text(html)) == ["move 3c"]
