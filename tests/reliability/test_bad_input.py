"""Bad input: schemathesis against the OpenAPI document on a live server, and hostile bodies.

(Oversized bodies, over-long names and reasons, unknown games and actions are also checked field by
field in tests/api/test_errors.py.)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from shipmate.rules.table import NAME_MAX
from tests.api.client import TIMEOUT, Game, bearer
from tests.fixtures_server import TEST_LIMITS, StartServer

SCHEMATHESIS = Path(sys.executable).with_name("st")
EXAMPLES = 40
# a bound for a run that hangs, not a measure: on a machine busy with other work a whole run took 4 min
RUN_BOUND = 900


@pytest.mark.slow
def test_schemathesis_finds_no_5xx_and_every_response_matches_the_document(
    start_server: StartServer, tmp_path: Path
) -> None:
    base = start_server(**TEST_LIMITS)
    game = Game.create(base)  # a real game, so the generated requests reach the rules
    game.seat(2)
    config = tmp_path / "schemathesis.toml"
    config.write_text(f'[parameters]\n"path.code" = "{game.code}"\n')
    # positive_data_acceptance is left out: a schema-valid body may still be refused (400/422) by the
    # rules, which the document says (e.g. house_rules names the game checks, or a rule of the turn).
    # Every response body is checked, the state view of GET /api/games/{code} included.
    result = subprocess.run(
        [str(SCHEMATHESIS), "--config-file", str(config), "run", f"{base}/api/openapi.json",
         "--exclude-path-regex", "^/ws/", "--checks", "all", "--exclude-checks", "positive_data_acceptance",
         "--max-examples", str(EXAMPLES), "--seed", "1607", "--workers", "1",
         "--header", f"Authorization: Bearer {game.host}", "--request-timeout", "10"],
        capture_output=True, text=True, timeout=RUN_BOUND, check=False,
    )
    summary = result.stdout[-4000:]
    assert result.returncode == 0, summary
    found = re.search(r"(\d+) generated", summary)
    assert found, summary
    generated = int(found.group(1))
    assert generated > 1000
    print(f"\nschemathesis: {generated} test cases, no failure")


def test_deeply_nested_json_is_400_not_a_crash(live_server: str) -> None:
    game = Game.create(live_server)
    game.seat(2)
    deep = b'{"type": "roll", "x": ' + b"[" * 30_000 + b"]" * 30_000 + b"}"
    response = game.http.post(f"{game.url}/actions", data=deep, headers=bearer(game.players["p1"]),
                              timeout=TIMEOUT)
    assert response.status_code == 400 and response.json()["error"] == "invalid"
    sock = game.socket(game.players["p1"])
    sock.receive()
    sock.ws.send('{"type": "action", "id": 1, "action": ' + "[" * 30_000 + "]" * 30_000 + "}")
    assert sock.until("error")["status"] == 400
    sock.close()
    assert game.state()["version"] == game.state(game.host)["version"]


def test_wide_json_within_the_limit_is_refused_cleanly(live_server: str) -> None:
    game = Game.create(live_server)
    game.seat(2)
    wide = {"type": "offer", "to": "p2", "give": {f"r{i}": 1 for i in range(5000)}, "get": {}}
    assert len(json.dumps(wide)) < 64 * 1024
    response = game.act(game.players["p1"], wide)
    assert response.status_code in (400, 422) and "error" in response.json()
    many = {"type": "roll", **{f"k{i}": i for i in range(4000)}}
    assert len(json.dumps(many)) < 64 * 1024
    assert game.act(game.players["p1"], many).status_code == 400


@pytest.mark.parametrize("size", [1024 * 1024, 16 * 1024 * 1024])
def test_an_oversized_body_is_413_and_the_server_carries_on(live_server: str, size: int) -> None:
    try:
        response = requests.post(f"{live_server}/api/games", data=b"x" * size,
                                 headers={"Content-Type": "application/json"}, timeout=TIMEOUT)
        assert response.status_code == 413 and response.json()["error"] == "too_large"
    except requests.ConnectionError:
        assert size > 1024 * 1024  # past the drain bound the server may hang up once it said 413
    assert requests.get(f"{live_server}/healthz", timeout=TIMEOUT).status_code == 200


def test_names_and_free_text_are_limited_in_length(live_server: str) -> None:
    game = Game.create(live_server)
    too_long = NAME_MAX + 1
    for name, status in (("x" * too_long, 400), ("⚓" * too_long, 400), ("", 400), ("x" * NAME_MAX, 201)):
        response = requests.post(f"{game.url}/players", json={"name": name, "character": "venice"},
                                 timeout=TIMEOUT)
        assert response.status_code == status, (name, response.text)
    game.join("Bram", "spain")
    game.ok(game.host, {"type": "start"})
    adjust = {"type": "adjust", "player": "p1", "resources": {"wood": 1}}
    assert game.act(game.host, {**adjust, "reason": "r" * 201}).status_code == 400
    assert game.act(game.host, {**adjust, "reason": "r" * 200}).status_code == 200
