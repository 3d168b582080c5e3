"""The catalog a text is written with: any gettext-like object (`gettext`, `ngettext`), such as
`gettext.NullTranslations` or a Babel `Translations` the server loaded from its .mo files.

The engine reads no file: the caller passes the catalog of the reader's language in, and
ENGLISH (no catalog: each message is its own English) is the default.
"""

from __future__ import annotations

import gettext
from typing import Protocol


class Catalog(Protocol):
    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


ENGLISH: Catalog = gettext.NullTranslations()
