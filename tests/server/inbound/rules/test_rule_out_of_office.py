import pytest

from server.inbound.rules import out_of_office
from tests.server.inbound.rules.rule_mail import headers_of


@pytest.mark.parametrize("subject", [
    "Automatic reply: Gems of Iridescia q1h7sz6b", "Out of Office: Re: your turn",
    "Ada Lovelace is out of the office.",  # Lotus Notes
    "Automatische Antwort: Gems of Iridescia", "Abwesend: Gems of Iridescia",
    "Réponse automatique : Gems of Iridescia", "Respuesta automática: Gems of Iridescia",
    "Risposta automatica: Gems of Iridescia", "Automatisch antwoord: Gems of Iridescia",
    "Automatiskt svar: Gems of Iridescia", "自動応答: Gems of Iridescia",
    "自动回复: Gems of Iridescia", "=?utf-8?b?6Ieq5Yqo5Zue5aSNOiBHZW1z?=",
])
def test_out_of_office_subjects(subject):
    assert out_of_office.check(headers_of(subject=subject)) is not None, subject


@pytest.mark.parametrize("subject", [
    "Re: Gems of Iridescia q1h7sz6b", "Re: Ben is absent — your turn 7 (q1h7sz6b)",
    "Re: Ana restored the Emerald Tablet — your turn 7 (q1h7sz6b)",
])
def test_replies_are_not(subject):
    assert out_of_office.check(headers_of(subject=subject)) is None
