"""The line at the top of every mail the server sends: a reply's new text ends where it is found.

Mail clients that quote without `>` (Outlook, in any language) put the whole mail under a header
block; the marker makes sure that nothing under it, which is our own mail, is ever read as a
command, whatever the language of the header. The templates in
server/notifications/templates/email/ write it out; a test checks they carry this text.
"""

REPLY_MARKER = "## Reply above this line ##"
MARKER_WORDS = "reply above this line"  # what is looked for, case-insensitive (clients rewrap)
