"""The OpenAPI document says what the server accepts: schemathesis, every check, finds nothing.

The run reaches the rules: its requests name a game in play and carry the token of the player
whose turn it is (the host's for linking a dice device, which only the host may do). A second run
joins a game in its lobby.
"""

from __future__ import annotations

import http.client
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import requests

from shipmate.web.schemas import GAMES
from tests.api.client import TIMEOUT, Game

SCHEMATHESIS = Path(sys.executable).with_name("st")
EXAMPLES = 60
# a bound for a run that hangs, not a measure: on a machine busy with other work a whole run took 4 min
RUN_BOUND = 900

# A schema-valid action may still be refused by the game at this moment: 422 when a rule says no,
# 400 when it names what this game does not have (a player, a ship, a quest card, an offer), or is
# another game's action (the route takes any game's; the code does not say which game it is). The
# document says all of it; which ids exist is the game's state, not the document's.
ACTIONS_ACCEPTED = ["2xx", "400", "401", "403", "404", "409", "422", "429"]
# A schema-valid secret that no hand-over link holds is one that was used, expired, or never made: 410.
SEAT_ACCEPTED = ["2xx", "404", "410", "429"]
# A join names any game's character (the document lists each game's); the game at the code takes only
# its own: 400 for another's, 409 for a taken one or a full table.
JOIN_ACCEPTED = ["2xx", "400", "409", "429"]


def config(game: Game, player: str) -> str:
    """Return the schemathesis configuration of a run against `game`."""
    return f"""
headers = {{ Authorization = "Bearer {player}" }}

[parameters]
"path.code" = "{game.code}"

[[operations]]
include-path = "/api/games/{{code}}/dice-device"
headers = {{ Authorization = "Bearer {game.host}" }}

[[operations]]
include-path = "/api/games/{{code}}/actions"
checks.positive_data_acceptance.expected-statuses = {ACTIONS_ACCEPTED!r}

[[operations]]
include-path = "/api/games/{{code}}/seat"
checks.positive_data_acceptance.expected-statuses = {SEAT_ACCEPTED!r}
"""


def schemathesis(live_server: str, settings: str, tmp_path: Path, *options: str) -> int:
    """Run schemathesis with every check against the server's document; return the cases it made."""
    config_file = tmp_path / "schemathesis.toml"
    config_file.write_text(settings)
    result = subprocess.run(
        [str(SCHEMATHESIS), "--config-file", str(config_file), "run", f"{live_server}/api/openapi.json",
         "--checks", "all", "--max-examples", str(EXAMPLES), "--seed", "1607", "--workers", "1",
         "--request-timeout", "10", *options],
        capture_output=True, text=True, timeout=RUN_BOUND, check=False, cwd=tmp_path,
    )
    summary = result.stdout[-6000:]
    assert result.returncode == 0, summary
    found = re.search(r"(\d+) generated", summary)
    assert found, summary
    return int(found.group(1))


def test_schemathesis_with_every_check_finds_nothing(live_server: str, tmp_path: Path) -> None:
    game = Game.create(live_server)
    game.seat(2)
    _, player = game.token_of_active()
    # the socket is left out: its 101 leaves the CLI's pooled connection a socket; tests/api/
    # test_schemathesis.py runs it with a session per request
    socket = "/ws/games/{code}"
    generated = schemathesis(live_server, config(game, player), tmp_path, "--exclude-path", socket)
    assert generated > 1000


def test_schemathesis_joining_a_lobby_finds_nothing(live_server: str, tmp_path: Path) -> None:
    game = Game.create(live_server)
    settings = f"""
[parameters]
"path.code" = "{game.code}"

[[operations]]
include-path = "/api/games/{{code}}/players"
checks.positive_data_acceptance.expected-statuses = {JOIN_ACCEPTED!r}
"""
    assert schemathesis(live_server, settings, tmp_path, "--include-path", "/api/games/{code}/players") > 50
    assert game.state()["players"]  # some joins were taken: the run reached the rules' yes as well


def test_the_document_says_each_games_characters_and_actions(live_server: str) -> None:
    document = requests.get(f"{live_server}/api/openapi.json", timeout=TIMEOUT).json()
    schemas = document["components"]["schemas"]
    character = schemas["Join"]["properties"]["character"]
    for name in GAMES:
        ruleset = requests.get(f"{live_server}/api/rulesets/{name}", timeout=TIMEOUT).json()
        own = next(choice["enum"] for choice in character["anyOf"] if choice["title"] == name)
        assert own == [c["id"] for c in ruleset["characters"]]
        union = schemas[f"{GAMES[name].title}Action"]
        kinds = union["discriminator"]["mapping"]
        assert set(kinds) == set(GAMES[name].actions) and len(union["oneOf"]) == len(set(kinds.values()))
        for kind, ref in kinds.items():  # each branch takes only the actions of this game it stands for
            component = schemas[ref.rsplit("/", 1)[1]]
            assert kind in component["properties"]["type"]["enum"]
            assert {k for k, r in kinds.items() if r == ref} == set(component["properties"]["type"]["enum"])
    socket_route = document["paths"]["/ws/games/{code}"]["get"]
    updates = next(p for p in socket_route["parameters"] if p["name"] == "updates")
    assert updates["in"] == "query" and updates["schema"]["enum"] == ["full", "patch"]


def test_a_handshake_as_documented_switches_protocols(live_server: str) -> None:
    """The socket's route answers the documented headers with the documented 101."""
    game = Game.create(live_server)
    socket_route = requests.get(f"{live_server}/api/openapi.json", timeout=TIMEOUT).json()["paths"][
        "/ws/games/{code}"]["get"]
    headers = {p["name"]: p["schema"]["enum"][0] if "enum" in p["schema"] else "dGhlIHNhbXBsZSBub25jZQ=="
               for p in socket_route["parameters"] if p["in"] == "header"}
    address = urlsplit(live_server)
    connection = http.client.HTTPConnection(address.hostname or "", address.port, timeout=TIMEOUT)
    try:
        connection.request("GET", f"/ws/games/{game.code}", headers=headers)
        response = connection.getresponse()
        assert response.status == 101 and str(response.status) in socket_route["responses"]
        for name, header in socket_route["responses"]["101"]["headers"].items():
            value = response.getheader(name)
            assert value is not None and value in header["schema"].get("enum", [value]), (name, value)
    finally:
        connection.close()


def test_a_get_that_is_not_a_websocket_handshake_is_400_as_documented(live_server: str) -> None:
    """A plain GET of the socket's route, or a handshake without its key, is 400 in the error shape."""
    game = Game.create(live_server)
    socket_route = requests.get(f"{live_server}/api/openapi.json", timeout=TIMEOUT).json()["paths"][
        "/ws/games/{code}"]["get"]
    assert {"400", "101"} <= set(socket_route["responses"])
    required = {p["name"] for p in socket_route["parameters"] if p["in"] == "header" and p["required"]}
    assert required == {"Upgrade", "Connection", "Sec-WebSocket-Version", "Sec-WebSocket-Key"}
    url = f"{live_server}/ws/games/{game.code}"
    handshake = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13"}
    for headers, missing in (({}, "Connection: Upgrade"), (handshake, "Sec-WebSocket-Key")):
        refused = requests.get(url, headers=headers, timeout=TIMEOUT)
        assert refused.status_code == 400, refused.text
        assert refused.json()["fields"] == {"_handshake": [f"Missing header, '{missing}'"]}
        dutch = requests.get(url, headers={**headers, "Accept-Language": "nl"}, timeout=TIMEOUT).json()
        assert dutch["fields"] == {"_handshake": [f"Header ontbreekt: '{missing}'"]}, dutch
