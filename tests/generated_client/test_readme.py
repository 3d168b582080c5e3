"""The README's generated-client lines work as written, against the real server."""

from __future__ import annotations

import importlib
import re
import time

from tests.generated_client.conftest import ROOT

MARKER = "<!-- generated-client: tests/generated_client/test_readme.py runs this block -->"


def test_the_readme_plays_a_command_with_the_generated_client(generated, live):
    readme = (ROOT / "README.md").read_text()
    block = re.search(re.escape(MARKER) + r"\n```python\n(.*?)```", readme, re.S)
    assert block, "the README's generated-client block is gone"
    code = block.group(1)
    assert len(code.strip().splitlines()) <= 6
    models = importlib.import_module(f"{generated.__name__}.models")
    users = importlib.import_module(f"{generated.__name__}.api.users.register_user")
    verify = importlib.import_module(f"{generated.__name__}.api.users.verify_address")
    create = importlib.import_module(f"{generated.__name__}.api.games.create_game")
    users.sync(client=generated.Client(base_url=live.url),
               body=models.UserCreate(name="Ada", email="ada@example.org"))
    ada = verify.sync(client=generated.Client(base_url=live.url),
                      body=models.Code(code=live.mailed_code("ada@example.org")))
    me = generated.AuthenticatedClient(base_url=live.url, token=ada.token)
    game = create.sync(client=me, body=models.GameCreate(seats=1))
    get_game = importlib.import_module(f"{generated.__name__}.api.games.get_game")
    deadline = time.monotonic() + 30
    while get_game.sync(game.id, client=me).current_seat != game.my_seat:  # the Rhom goes first
        assert time.monotonic() < deadline, "the Rhom never played its first turn"
        time.sleep(0.02)
    code = (code.replace("http://127.0.0.1:5000", live.url).replace("YOUR_TOKEN", ada.token)
            .replace("k3x9q2ab", game.id))
    scope: dict = {}
    exec(compile(code, "README.md", "exec"), scope)  # noqa: S102 - our own README
    assert isinstance(scope["played"], models.CommandResult), scope["played"]
    assert scope["played"].version > scope["legal"].version
