"""Issue 16, findings 2 and 9: names and email addresses are refused at the API when they hold
control characters (a CR/LF in a name broke every mail whose subject quoted it; ESC and BEL in
a quoted local part reached the To header and the operator's terminal), with a 422 that names
the field and the character."""

from __future__ import annotations

import pytest

from tests.accounts import sign_up
from tests.server.helpers import assert_error

NAMES = {
    "CR LF": ("Ada\r\nBcc: victim@example.org", "U+000D"),
    "LF": ("Ada\nLovelace", "U+000A"),
    "ESC": ("\x1b]0;pwned\x07", "U+001B"),
    "BEL": ("Ada\x07", "U+0007"),
    "C1 CSI": ("Ada\x9b2J", "U+009B"),
    "DEL": ("Ada\x7f", "U+007F"),
    "TAB": ("Ada\tB", "U+0009"),
    "RLO": ("Ada\u202e", "U+202E"),
    "line separator": ("Ada\u2028B", "U+2028"),
}
EMAILS = {
    "ESC in a quoted local part": ('"a\x1b[2J"@example.org', "U+001B"),
    "BEL in a quoted local part": ('"a\x07b"@example.org', "U+0007"),
    "CR LF": ("a@example.org\r\nBcc: b@example.org", "U+000D"),
}


@pytest.mark.parametrize("label", NAMES)
def test_a_name_with_a_control_character_is_refused(client, label):
    name, code = NAMES[label]
    response = client.post("/api/v1/users", json={"name": name, "email": "ada@example.org"})
    body = assert_error(response, 422, f"name: must not contain control characters ({code}",
                        "type it again without them")
    assert body["details"]["fields"]["json"]["name"], body


@pytest.mark.parametrize("label", EMAILS)
def test_an_email_with_a_control_character_is_refused(client, label):
    email, code = EMAILS[label]
    response = client.post("/api/v1/users", json={"name": "Ada", "email": email})
    assert_error(response, 422, f"email: must not contain control characters ({code}")


@pytest.mark.parametrize("label", EMAILS)
def test_an_invitation_to_an_address_with_a_control_character_is_refused(client, ada, label):
    email, code = EMAILS[label]
    game = client.post("/api/v1/games", json={"seats": 2}, headers=ada.headers).json
    response = client.post(f"/api/v1/games/{game['id']}/invitations", json={"email": email},
                           headers=ada.headers)
    assert_error(response, 422, f"email: must not contain control characters ({code}")


def test_names_in_any_script_and_with_emoji_are_still_welcome(client):
    for index, name in enumerate(["Zoë Ødegård", "李小龍", "Ada 👩‍💻", "Ярослава"]):
        assert sign_up(client, name, f"p{index}@example.org")["name"] == name
