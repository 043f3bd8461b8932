"""Every refusal of the contract: the right status, the one JSON shape, and nothing changed."""

from __future__ import annotations

from contextlib import closing
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
    ({"type": "offer", "to": "p2", "give": {"wood": -1}, "get": {}}, "give.wood"),
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
    assert assert_error(response, 400, "invalid")["fields"] == {
        "options.quests_per_level": ["Must be one of: 1, 2, 3."]}
    response = requests.post(f"{live_server}/api/games", json={"game": "chess"}, timeout=10)
    assert "game" in assert_error(response, 400)["fields"]


# ---- 400: the messages of nested fields -----------------------------------------------------
# Every field's messages are a list at the field's path (docs/PROTOCOL.md, Errors), at every depth,
# in the caller's language; tests/api/test_field_messages.py walks every field of every schema.

NESTED = [
    # (game, action, {path: [English]}, {path: [Dutch]})
    ("quest1607", {"type": "offer", "to": "p2", "give": "wood", "get": {}},
     {"give": ["Not a valid mapping type."]}, {"give": ["Geen geldig object."]}),
    ("quest1607", {"type": "offer", "to": "p2", "give": [{"wood": 1}], "get": {}},
     {"give": ["Not a valid mapping type."]}, {"give": ["Geen geldig object."]}),
    ("quest1607", {"type": "offer", "to": "p2", "give": {"wood": "1"}, "get": {}},
     {"give.wood": ["Not a valid integer."]}, {"give.wood": ["Geen geldig geheel getal."]}),
    ("quest1607", {"type": "offer", "to": "p2", "give": {"wood": 1, "gold": 1}, "get": {"wood": -1}},
     {"give.gold": ["Unknown field."],
      "get.wood": ["Must be greater than or equal to 0 and less than or equal to 999."]},
     {"give.gold": ["Onbekend veld."], "get.wood": ["Moet tussen 0 en 999 liggen."]}),
    ("quest1607", {"type": "bank", "give": {"wood": None}, "get": "iron"},
     {"give.wood": ["Field may not be null."]}, {"give.wood": ["Dit veld mag niet leeg (null) zijn."]}),
    ("quest1607", {"type": "keep", "resources": {"coal": 1.5}},
     {"resources.coal": ["Not a valid integer."]}, {"resources.coal": ["Geen geldig geheel getal."]}),
    ("quest1607", {"type": "adjust", "player": "p1", "resources": {"food": -1000}, "reason": "x"},
     {"resources.food": ["Must be greater than or equal to -999 and less than or equal to 999."]},
     {"resources.food": ["Moet tussen -999 en 999 liggen."]}),
    ("serenissima", {"type": "place_sailors", "home": 1, "galleys": {"1": -2, "x": 1}},
     {"galleys.1": ["Must be greater than or equal to 0."], "galleys.x": ["A galley's number is 1 to 99."]},
     {"galleys.1": ["Moet minstens 0 zijn."], "galleys.x": ["Het nummer van een galei is 1 tot 99."]}),
    ("serenissima", {"type": "place_sailors", "home": 1, "galleys": [4]},
     {"galleys": ["Not a valid mapping type."]}, {"galleys": ["Geen geldig object."]}),
    ("voyagers", {"type": "display", "cards": [{"id": 7, "kind": "common"}, "c2", {"id": "c3", "kind": "x"}]},
     {"cards.0.id": ["Not a valid string."], "cards.1": ["Not a valid mapping type."],
      "cards.2.kind": ["Must be one of: common, fleet."]},
     {"cards.0.id": ["Geen geldige tekst."], "cards.1": ["Geen geldig object."],
      "cards.2.kind": ["Moet een van deze zijn: common, fleet."]}),
    ("voyagers", {"type": "display", "cards": {"id": "c1", "kind": "common"}},
     {"cards": ["Not a valid list."]}, {"cards": ["Geen geldige lijst."]}),
    ("voyagers", {"type": "display", "cards": [{"id": "c1", "kind": "fleet", "cost": 3}]},
     {"cards.0.cost": ["Unknown field."]}, {"cards.0.cost": ["Onbekend veld."]}),
    ("voyagers", {"type": "start", "order": ["p1", 2, ""]},
     {"order.1": ["Not a valid string."], "order.2": ["Length must be between 1 and 32."]},
     {"order.1": ["Geen geldige tekst."], "order.2": ["De lengte moet tussen 1 en 32 liggen."]}),
    ("voyagers", {"type": "cut", "kind": "remove", "cards": ["c1", None]},
     {"cards.1": ["Field may not be null."]}, {"cards.1": ["Dit veld mag niet leeg (null) zijn."]}),
]


def _lobby(live_server: str, name: str) -> Game:
    """A game of `name` in its lobby: the schemas refuse a malformed action before any rule."""
    return Game.create(live_server, name)


@pytest.mark.parametrize(("name", "action", "english", "dutch"), NESTED)
def test_a_nested_fields_messages_are_a_list_at_its_path_in_the_callers_language(
        live_server: str, name: str, action: dict[str, Any], english: dict[str, list[str]],
        dutch: dict[str, list[str]]) -> None:
    game = _lobby(live_server, name)
    with unchanged(game):
        assert assert_error(game.act(game.host, action, language="en"), 400, "invalid")["fields"] == english
        body = assert_error(game.act(game.host, action, language="nl"), 400, "invalid")
    assert body["fields"] == dutch and body["message"] == "Het verzoek klopt niet; zie 'fields'."


@pytest.mark.parametrize(("name", "action", "english", "dutch"), NESTED)
def test_a_socket_action_answers_a_nested_field_as_http_does_in_the_frames_language(
        live_server: str, name: str, action: dict[str, Any], english: dict[str, list[str]],
        dutch: dict[str, list[str]]) -> None:
    game = _lobby(live_server, name)
    with closing(game.socket(game.host, header=["Accept-Language: nl"])) as sock:  # the handshake's: Dutch
        sock.receive()
        for number, (language, fields) in enumerate([("en", english), ("nl", dutch), (None, dutch)]):
            frame = {"type": "action", "id": number, "action": action}
            sock.send(frame if language is None else {**frame, "language": language})
            result = sock.until("result", id=number)
            assert (result["status"], result["error"], result["fields"]) == (400, "invalid", fields)
    assert game.state()["version"] == 0


HOUSE = "options.house_rules"


@pytest.mark.parametrize(("body", "english", "dutch"), [
    ({"options": {"house_rules": {"caps": {"cannons": 9}}}},
     {f"{HOUSE}.caps.cannons": ["Must be greater than or equal to 1 and less than or equal to 7."]},
     {f"{HOUSE}.caps.cannons": ["Moet tussen 1 en 7 liggen."]}),
    ({"options": {"house_rules": {"caps": [7], "hit_table": {"2": {"3": 0, "8": 1}}}}},
     {f"{HOUSE}.caps": ["Not a valid mapping type."],
      f"{HOUSE}.hit_table.2.3": ["Must be greater than or equal to 1 and less than or equal to 6."],
      f"{HOUSE}.hit_table.2.8": ["Unknown field."]},
     {f"{HOUSE}.caps": ["Geen geldig object."],
      f"{HOUSE}.hit_table.2.3": ["Moet tussen 1 en 6 liggen."],
      f"{HOUSE}.hit_table.2.8": ["Onbekend veld."]}),
    ({"options": {"house_rules": {"hit_bounds": {"min": 5, "max": 4}}}},
     {f"{HOUSE}.hit_bounds": [
         "min and max are each 1 to 6, and min is at most max (the ruleset's: min 2, max 6)."]},
     {f"{HOUSE}.hit_bounds": [
         "min en max zijn elk 1 tot 6, en min is hoogstens max (die van de spelregels: min 2, max 6)."]}),
    ({"options": "fast"}, {"options": ["Not a valid mapping type."]}, {"options": ["Geen geldig object."]}),
    ({"game": "serenissima", "options": {"house_rules": {"rounds": 0, "tax": 1}}},
     {f"{HOUSE}.rounds": ["Must be greater than or equal to 1."], f"{HOUSE}.tax": ["Unknown field."]},
     {f"{HOUSE}.rounds": ["Moet minstens 1 zijn."], f"{HOUSE}.tax": ["Onbekend veld."]}),
    ({"game": "voyagers", "options": {"house_rules": {"starting_gold": 2**60}}},
     {f"{HOUSE}.starting_gold": ["Must be less than or equal to 9007199254740992."]},
     {f"{HOUSE}.starting_gold": ["Mag hoogstens 9007199254740992 zijn."]}),
])
def test_a_new_games_nested_options_are_named_by_their_path(
        live_server: str, body: dict[str, Any], english: dict[str, list[str]],
        dutch: dict[str, list[str]]) -> None:
    assert assert_error(post(f"{live_server}/api/games", body), 400, "invalid")["fields"] == english
    response = post(f"{live_server}/api/games", body, {"Accept-Language": "nl"})
    assert assert_error(response, 400, "invalid")["fields"] == dutch


HANDSHAKE = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
             "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}


def test_the_web_layers_own_field_messages_speak_dutch_too(live_server: str) -> None:
    game = Game.create(live_server, "serenissima")
    host, dutch = {**bearer(game.host), "Accept-Language": "nl"}, {"Accept-Language": "nl"}
    response = game.http.post(f"{game.url}/dice-device", headers=host)
    assert assert_error(response, 400)["fields"] == {"game": ["serenissima heeft geen dobbelsteentoestel."]}
    response = game.act(game.host, {"type": "start"}, key="no spaces", language="nl")
    assert assert_error(response, 400)["fields"] == {"Idempotency-Key": ["1 tot 128 zichtbare ASCII-tekens."]}
    unknown = assert_error(game.act(game.host, {"type": "sail"}, language="nl"), 400)["fields"]["type"]
    assert unknown[0].startswith("Onbekende actie 'sail'. Bekend: start,")
    response = game.http.post(f"{game.url}/actions", data=b"{", headers=host)
    assert assert_error(response, 400)["fields"]["_body"][0].startswith("Ongeldige JSON: ")
    response = game.http.get(f"{game.url}/events", params={"since": "1_0"}, headers=dutch)
    assert assert_error(response, 400)["fields"] == {"since": ["Geen geldig geheel getal."]}
    socket_route = f"{game.base}/ws/games/{game.code}"
    response = game.http.get(socket_route, params={"updates": "zip"}, headers={**HANDSHAKE, **dutch})
    assert assert_error(response, 400, "invalid")["fields"] == {"updates": ["Een van: full, patch."]}
    response = game.http.get(socket_route, headers=dutch)  # no handshake at all
    assert assert_error(response, 400, "invalid")["fields"] == {
        "_handshake": ["Header ontbreekt: 'Connection: Upgrade'"]}
    keyless = {name: value for name, value in HANDSHAKE.items() if name != "Sec-WebSocket-Key"}
    response = game.http.get(socket_route, headers=keyless)
    assert assert_error(response, 400, "invalid")["fields"] == {
        "_handshake": ["Missing header, 'Sec-WebSocket-Key'"]}
    response = game.http.get(game.url, headers={**HANDSHAKE, **dutch})  # a handshake to an HTTP route
    assert assert_error(response, 400, "invalid")["fields"] == {
        "_handshake": ["Dit adres neemt geen WebSocket-handdruk aan."]}


def test_a_blank_name_is_400_at_its_field(live_server: str) -> None:
    game = Game.create(live_server)
    response = post(f"{game.url}/players", {"name": "   ", "character": "spain"}, {"Accept-Language": "nl"})
    assert assert_error(response, 400, "invalid")["fields"] == {
        "name": ["Een naam bestaat niet alleen uit spaties."]}
    assert game.state()["players"] == []


def test_a_socket_refusal_outside_an_action_speaks_the_handshakes_language(live_server: str) -> None:
    game = Game.create(live_server)
    with closing(game.socket(None, header=["Accept-Language: nl"])) as sock:
        sock.receive()
        sock.send({"type": "resume", "since": "3"})
        assert sock.until("error")["fields"] == {"since": ["Geen geldig geheel getal."]}
        sock.send({"type": "jump"})
        assert sock.until("error")["fields"] == {"type": ["Moet een van deze zijn: action, resume, ping."]}
        sock.ws.send("[1]")
        assert sock.until("error")["fields"] == {"_body": ["De inhoud moet een JSON-object zijn."]}


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
    body = assert_error(response, 409, "conflict")
    assert body["fields"] == {"character": [body["message"]]} and set(body) == {"error", "message", "fields"}
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
