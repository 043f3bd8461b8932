"""The OpenAPI document says what the server accepts: schemathesis, every check, finds nothing.

The run reaches the rules: its requests name a game in play and carry the token of the player
whose turn it is (the host's for linking a dice device, which only the host may do).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import requests

from tests.api.client import TIMEOUT, Game

SCHEMATHESIS = Path(sys.executable).with_name("st")
EXAMPLES = 60

# A schema-valid action may still be refused by the game at this moment: 422 when a rule says no,
# 400 when it names what this game does not have (a player, a ship, a quest card, an offer). The
# document says both; which ids exist is the game's state, not the document's.
ACTIONS_ACCEPTED = ["2xx", "400", "401", "403", "404", "409", "422", "429"]
# A schema-valid secret that no hand-over link holds is one that was used, expired, or never made: 410.
SEAT_ACCEPTED = ["2xx", "404", "410", "429"]


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


def test_schemathesis_with_every_check_finds_nothing(live_server: str, tmp_path: Path) -> None:
    game = Game.create(live_server)
    game.seat(2)
    _, player = game.token_of_active()
    settings = tmp_path / "schemathesis.toml"
    settings.write_text(config(game, player))
    result = subprocess.run(
        [str(SCHEMATHESIS), "--config-file", str(settings), "run", f"{live_server}/api/openapi.json",
         "--exclude-path", "/ws/games/{code}",  # below: an HTTP client cannot follow a switch of protocols
         "--checks", "all", "--max-examples", str(EXAMPLES), "--seed", "1607", "--workers", "1",
         "--request-timeout", "10"],
        capture_output=True, text=True, timeout=240, check=False, cwd=tmp_path,
    )
    summary = result.stdout[-6000:]
    assert result.returncode == 0, summary
    found = re.search(r"(\d+) generated", summary)
    assert found and int(found.group(1)) > 1000, summary


def test_a_get_that_is_not_a_websocket_handshake_is_400_as_documented(live_server: str) -> None:
    """Schemathesis leaves the socket out: after a 101 its client would send HTTP on the socket."""
    game = Game.create(live_server)
    socket_route = requests.get(f"{live_server}/api/openapi.json", timeout=TIMEOUT).json()["paths"][
        "/ws/games/{code}"]["get"]
    assert {"400", "101"} <= set(socket_route["responses"])
    required = {p["name"] for p in socket_route["parameters"] if p["in"] == "header" and p["required"]}
    assert required == {"Upgrade", "Connection", "Sec-WebSocket-Version", "Sec-WebSocket-Key"}
    url = f"{live_server}/ws/games/{game.code}"
    handshake = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13"}
    for headers in ({}, handshake):  # no upgrade at all; an upgrade without its key
        refused = requests.get(url, headers=headers, timeout=TIMEOUT)
        assert refused.status_code == 400 and "error" in refused.json(), refused.text
