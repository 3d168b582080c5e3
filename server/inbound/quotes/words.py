"""The words mail clients write above what they quote, by language. Lower case; matched against
a line lower-cased. Add a language by adding its words here (and a fixture under
tests/server/inbound/fixtures/replies/)."""

# "X wrote:" at the end of an attribution line: en, de, fr, es, it, nl, sv, da/no, pl, ru, pt,
# ja, zh, he, cs, tr, fi.
WROTE = (
    "wrote", "schrieb", "a écrit", "escribió", "ha scritto", "schreef", "skrev", "napisał",
    "napisała", "napisał(a)", "pisze", "написал", "написала", "написал(а)", "пишет",
    "escreveu", "のメッセージ", "書きました", "写道", "寫道", "כתב", "כתבה", "כתב/ה",
    "napsal", "yazdı", "kirjoitti",
)

# The first key of a header block an Outlook-like client writes above the mail it quotes.
FROM_KEYS = (
    "from", "von", "de", "da", "van", "från", "fra", "od", "от", "差出人", "发件人", "發件人",
    "寄件者", "מאת", "lähettäjä", "kimden",
)

# The keys under it (any of them confirms the block).
BLOCK_KEYS = (
    "sent", "date", "to", "cc", "subject", "gesendet", "datum", "an", "betreff", "envoyé",
    "date d'envoi", "à", "objet", "enviado", "fecha", "para", "asunto", "inviato", "data", "a",
    "oggetto", "verzonden", "aan", "onderwerp", "skickat", "till", "ämne", "wysłano", "do",
    "temat", "отправлено", "дата", "кому", "тема", "enviada", "assunto", "送信日時", "宛先",
    "件名", "发送时间", "收件人", "主题", "傳送時間", "收件者", "主旨", "נשלח", "אל", "נושא",
    "lähetetty", "vastaanottaja", "aihe", "gönderildi", "kime", "konu",
)

# A separator line's words, between runs of dashes: "-----Original Message-----".
SEPARATOR_WORDS = (
    "original message", "ursprüngliche nachricht", "original-nachricht", "message d'origine",
    "mensaje original", "messaggio originale", "oorspronkelijk bericht", "ursprungligt meddelande",
    "wiadomość oryginalna", "исходное сообщение", "mensagem original", "原始邮件", "原始郵件",
    "元のメッセージ", "הודעה מקורית", "forwarded message", "weitergeleitete nachricht",
)

# The first words of a mobile client's sign-off line, which ends the typed text.
SIGN_OFFS = (
    "sent from my ", "sent from yahoo mail", "sent from outlook", "sent from mail for windows",
    "get outlook for ", "von meinem ", "gesendet von ", "envoyé de mon ", "envoyé depuis ",
    "enviado desde mi ", "enviado desde ", "inviato da ", "verzonden vanaf ", "verstuurd vanaf ",
    "skickat från ", "wysłane z ", "отправлено с ", "enviado do meu ", "enviado de meu ",
    "発自我的", "发自我的", "從我的", "iphoneから送信", "androidから送信", "נשלח מה",
)
