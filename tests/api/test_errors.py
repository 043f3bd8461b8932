"""Every refusal of the contract: the right status, the one JSON shape, and nothing changed."""

from __future__ import annotations

from typing import Any

import pytest
import requests

from shipmate.rules.table import NAME_MAX
from tests.api.client import Game, bearer, unchanged


def assert_error(response: requests.Response, status: int, code: str | None = None) -> dict[str, Any]:
    """Check a refusal's status and shape; return its body."""
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    assert isinstance(body["error"], str) and isinstance(body["message"], str) and body["message"]
    if code:
        assert body["error"] == code
    return body


def post(url: str, body: Any, headers: dict[str, str] | None = None) -> requests.Response:
    """POST a JSON body."""
    return requests.post(url, json=body, headers=headers, timeout=10)


@pytest.fixture
def game(live_server: str) -> Game:
    """A game in play: p1 to roll, p2 waiting."""
    game = Game.create(live_server)
    game.seat(2)
    return game


# ---- 400 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("data", [b"{not json", b"[1, 2]", b"\"roll\"", b""])
def test_a_malformed_body_is_400_and_changes_nothing(game: Game, data: bytes) -> None:
    with unchanged(game):
        response = game.http.post(f"{game.url}/actions", data=data, headers=bearer(game.players["p1"]))
        body = assert_error(response, 400, "invalid")
    assert "_body" in body["fields"]


@pytest.mark.parametrize(("action", "field"), [
    ({"type": "sail", "ship": "one", "squares": 2}, "ship"),
    ({"type": "sail", "ship": 1, "squares": 2.5}, "squares"),
    ({"type": "sail", "ship": True, "squares": 2}, "ship"),
    ({"type": "upgrade", "ship": 1, "part": "mast"}, "part"),
    ({"type": "roll", "dice": 6}, "dice"),
    ({"type": "offer", "to": "p2", "give": {"wood": -1}, "get": {}}, "give"),
    ({"type": "adjust", "player": "p1", "resources": {}, "reason": "x" * 201}, "reason"),
    ({"type": "teleport"}, "type"),
    ({"squares": 2}, "type"),
    ({"type": "roll", "expected_version": "3"}, "expected_version"),
])
def test_wrong_fields_are_400_with_the_field_named(game: Game, action: dict[str, Any], field: str) -> None:
    with unchanged(game):
        body = assert_error(game.act(game.players["p1"], action), 400, "invalid")
    assert field in body["fields"] and body["fields"][field]


def test_a_field_message_speaks_dutch_when_asked(game: Game) -> None:
    body = assert_error(game.act(game.players["p1"], {"type": "sail", "ship": 1}, language="nl-NL"), 400)
    assert body["fields"]["squares"] == ["Dit veld is verplicht."]
    assert "verzoek" in body["message"]


def test_a_name_too_long_is_400(game: Game, live_server: str) -> None:
    fresh = Game.create(live_server)
    response = post(f"{fresh.url}/players", {"name": "x" * (NAME_MAX + 1), "character": "spain"})
    assert "name" in assert_error(response, 400, "invalid")["fields"]


def test_unknown_options_are_400(live_server: str) -> None:
    response = post(f"{live_server}/api/games", {"options": {"quests_per_level": 7}})
    assert "quests_per_level" in assert_error(response, 400, "invalid")["fields"]["options"]
    response = requests.post(f"{live_server}/api/games", json={"game": "chess"}, timeout=10)
    assert "game" in assert_error(response, 400)["fields"]


# ---- 401, 403, 404 --------------------------------------------------------------------------


def test_no_token_or_a_wrong_token_is_401(game: Game) -> None:
    with unchanged(game):
        assert_error(game.act(None, {"type": "roll"}), 401, "unauthorized")
        assert_error(game.act("not-a-token", {"type": "roll"}), 401, "unauthorized")
        response = game.http.post(f"{game.url}/actions", json={"type": "roll"},
                                  headers={"Authorization": "Basic abc"})
        assert_error(response, 401)
    assert_error(game.http.get(game.url, headers=bearer("forged")), 401)
    assert_error(game.http.get(f"{game.url}/events", headers=bearer("forged")), 401)


def test_a_token_of_another_game_is_401(game: Game, live_server: str) -> None:
    other = Game.create(live_server)
    assert_error(other.act(game.host, {"type": "start"}), 401)


def test_a_host_action_by_a_player_is_403(game: Game) -> None:
    with unchanged(game):
        greed = {"type": "adjust", "player": "p1", "resources": {"wood": 5}, "reason": "greed"}
        assert_error(game.act(game.players["p1"], greed), 403, "forbidden")
        assert_error(game.act(game.players["p2"], {"type": "undo"}), 403, "forbidden")


def test_answering_another_players_offer_is_403(live_server: str) -> None:
    game = Game.create(live_server)
    game.seat(3)
    game.ok(game.players["p1"], {"type": "roll"})
    game.ok(game.host, {"type": "adjust", "player": "p1", "resources": {"wood": 1}, "reason": "test"})
    offer = game.ok(game.players["p1"], {"type": "offer", "to": "p2", "give": {"wood": 1}, "get": {}})
    offer_id = offer["state"]["offers"][0]["id"]
    with unchanged(game):
        assert_error(game.act(game.players["p3"], {"type": "accept", "offer_id": offer_id}), 403)
        assert_error(game.act(game.players["p2"], {"type": "withdraw", "offer_id": offer_id}), 403)


def test_an_unknown_game_is_404(live_server: str, game: Game) -> None:
    url = f"{live_server}/api/games/ZZZZZZ"
    assert_error(requests.get(url, timeout=10), 404, "not_found")
    assert_error(requests.get(f"{url}/ruleset", timeout=10), 404)
    assert_error(requests.get(f"{url}/events", timeout=10), 404)
    assert_error(requests.get(f"{url}/qr.svg", timeout=10), 404)
    assert_error(post(f"{url}/players", {"name": "A", "character": "spain"}), 404)
    assert_error(post(f"{url}/actions", {"type": "roll"}, bearer(game.host)), 404)


# ---- 409 ------------------------------------------------------------------------------------


def test_a_stale_expected_version_is_409_before_the_rules(game: Game) -> None:
    version = game.state()["version"]
    with unchanged(game):
        # end_turn before the roll breaks T1, but the stale version is said first
        stale = {"type": "end_turn", "expected_version": version - 1}
        body = assert_error(game.act(game.players["p1"], stale), 409, "stale_version")
    assert body["version"] == version
    answer = game.ok(game.players["p1"], {"type": "roll", "expected_version": version})
    assert answer["version"] == version + 1


def test_lobby_conflicts_are_409(live_server: str) -> None:
    game = Game.create(live_server)
    game.join("Ann", "spain")
    response = post(f"{game.url}/players", {"name": "Bob", "character": "spain"})
    assert_error(response, 409, "conflict")
    game.join("Bob", "england")
    game.ok(game.host, {"type": "start"})
    with unchanged(game):
        response = post(f"{game.url}/players", {"name": "Cy", "character": "france"})
        assert_error(response, 409, "conflict")


# ---- 413, 422 -------------------------------------------------------------------------------


def test_a_body_over_64_kib_is_413(game: Game, live_server: str) -> None:
    with unchanged(game):
        huge = {"type": "roll", "padding": "x" * 70_000}
        assert_error(game.act(game.players["p1"], huge), 413, "too_large")
    response = requests.post(f"{live_server}/api/games", data=b"{" + b" " * 70_000 + b"}", timeout=10)
    assert_error(response, 413)


def test_a_rule_violation_is_422_with_the_rule(game: Game) -> None:
    with unchanged(game):
        body = assert_error(game.act(game.players["p1"], {"type": "end_turn"}), 422, "rule_violation")
        assert body["rule"] == "T1"
        body = assert_error(game.act(game.players["p2"], {"type": "roll"}), 422)
        assert body["rule"] == "T5"
        body = assert_error(game.act(game.players["p1"], {"type": "accept", "offer_id": "o9"}), 422)
        assert body["rule"] == "M1"


def test_a_rule_violation_speaks_the_callers_language(game: Game) -> None:
    english = assert_error(game.act(game.players["p1"], {"type": "end_turn"}, language="en"), 422)
    dutch = assert_error(game.act(game.players["p1"], {"type": "end_turn"}, language="nl"), 422)
    assert english["rule"] == dutch["rule"] and english["message"] != dutch["message"]


def test_an_unknown_route_answers_in_the_error_shape(live_server: str) -> None:
    assert_error(requests.get(f"{live_server}/api/nothing-here", timeout=10), 404)
    assert_error(requests.delete(f"{live_server}/api/games", timeout=10), 405, "method_not_allowed")
