"""The view's ETag names its order too (issue 30): a player who changes tile_sort or relic_sort
is never answered 304 for the view in the order they had, and the new tag still answers 304 and
names the version for a command's If-Match. On SQLite and PostgreSQL (the `client` fixture)."""

from __future__ import annotations

from tests.server.play import create_started_game, seat_map


def view(client, game_id, player, etag=None):
    headers = dict(player.headers, **({"If-None-Match": etag} if etag else {}))
    return client.get(f"/api/v1/games/{game_id}/view", headers=headers)


def prefs(client, player, **chosen):
    answer = client.patch("/api/v1/users/me/preferences", json=chosen, headers=player.headers)
    assert answer.status_code == 200, answer.json


def test_changing_the_order_changes_the_views_etag(client, ada, bob):
    game = create_started_game(client, [ada, bob])
    game_id = game["id"]
    first = view(client, game_id, ada)
    version = first.json["version"]
    assert first.headers["ETag"] == f'"{version}"'  # the accounts' default order, gem and gem
    assert view(client, game_id, ada, first.headers["ETag"]).status_code == 304

    prefs(client, ada, tile_sort="region")
    by_region = view(client, game_id, ada, first.headers["ETag"])
    assert by_region.status_code == 200 and by_region.json["version"] == version
    assert by_region.headers["ETag"] == f'"{version}.region.gem"'
    again = view(client, game_id, ada, by_region.headers["ETag"])
    assert again.status_code == 304 and again.headers["ETag"] == f'"{version}.region.gem"'

    prefs(client, ada, relic_sort="category")
    both = view(client, game_id, ada, by_region.headers["ETag"])
    assert both.status_code == 200 and both.headers["ETag"] == f'"{version}.region.category"'
    assert view(client, game_id, ada, f'W/{both.headers["ETag"]}').status_code == 304

    prefs(client, ada, tile_sort="gem", relic_sort="gem")
    back = view(client, game_id, ada, both.headers["ETag"])
    assert back.status_code == 200 and back.headers["ETag"] == f'"{version}"'
    # Bob's order is his own: Ada's settings never changed his tag.
    assert view(client, game_id, bob).headers["ETag"] == f'"{version}"'


def test_a_views_etag_with_its_order_is_an_if_match_for_the_version(client, ada, bob):
    game = create_started_game(client, [ada, bob])
    game_id = game["id"]
    seats = seat_map(client, game_id, [ada, bob])
    player = seats[0]
    prefs(client, player, tile_sort="region", relic_sort="category")
    tag = view(client, game_id, player).headers["ETag"]
    assert tag.endswith('.region.category"')
    legal = client.get(f"/api/v1/games/{game_id}/legal", headers=player.headers).json
    played = client.post(f"/api/v1/games/{game_id}/commands", json={"command": legal["commands"][0]},
                         headers={**player.headers, "If-Match": tag})
    assert played.status_code == 201, played.json
    stale = client.post(f"/api/v1/games/{game_id}/commands", json={"command": legal["commands"][0]},
                        headers={**player.headers, "If-Match": tag})
    assert stale.status_code == 412 and "refresh and retry" in stale.json["message"]


def test_a_spectator_without_an_account_sees_the_order_dealt_under_its_own_tag(client, ada, bob):
    game = create_started_game(client, [ada, bob], public=True)
    anonymous = client.get(f"/api/v1/games/{game['id']}/view")
    assert anonymous.status_code == 200
    assert anonymous.headers["ETag"] == f'"{anonymous.json["version"]}.dealt.dealt"'
