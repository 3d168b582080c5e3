"""Out-of-office replies that carry no header saying so (Exchange and Outlook rules, Lotus Notes,
many webmail vacation notices), known by their Subject in en, de, fr, es, it, nl, sv, pl, pt,
ru, ja and zh."""

from __future__ import annotations

import re

# Anywhere in the Subject, lower-cased.
PHRASES = (
    "out of office", "out of the office", "automatic reply", "auto reply", "auto-reply",
    "autoreply", "away from the office", "away from my desk",
    "abwesenheitsnotiz", "automatische antwort", "nicht im büro", "außer haus",
    "réponse automatique", "absence du bureau", "absent du bureau", "message d'absence",
    "respuesta automática", "fuera de la oficina", "fuera de oficina", "mensaje de ausencia",
    "risposta automatica", "fuori sede", "fuori ufficio", "assenza dall'ufficio",
    "automatisch antwoord", "afwezigheidsbericht", "niet op kantoor", "buiten kantoor",
    "automatiskt svar", "frånvaromeddelande", "ej på kontoret", "inte på kontoret", "autosvar",
    "automatyczna odpowiedź", "poza biurem", "resposta automática", "fora do escritório",
    "автоматический ответ", "вне офиса", "自動応答", "自動返信", "自动回复", "自動回覆",
    "不在办公室", "外出中", "休假中",
)
# The Subject of a reply: Re:, AW:, SV:, 回复: ... (our own subjects quoted back) before the words.
REPLY_PREFIX = re.compile(r"^(?:(?:re|aw|sv|vs|tr|fw|fwd|wg|odp|回复|答复)\s?[:：]\s?)+")
# At the start of the Subject, followed by a colon: words too short to look for anywhere.
PREFIXES = ("absent", "abwesend", "ausente", "assente", "afwezig", "frånvarande", "不在", "外出",
            "ausência", "nieobecność", "отсутствую", "vacation", "urlaub", "congés", "vacaciones")


def check(headers) -> str | None:
    subject = " ".join(headers.decoded("Subject").lower().split())
    for phrase in PHRASES:
        if phrase in subject:
            return f"an out-of-office reply (Subject: {phrase})"
    bare = REPLY_PREFIX.sub("", subject, count=1)
    for prefix in PREFIXES:
        if bare.startswith(prefix) and bare[len(prefix):].lstrip().startswith((":", "：")):
            return f"an out-of-office reply (Subject: {prefix}:)"
    return None
