"""The web app's files, the security headers, the QR code and the OpenAPI document."""

from __future__ import annotations

import requests

from shipmate.web.schemas import GAMES
from tests.api.client import TIMEOUT, Game
from tests.fixtures_server import StartServer

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self' ws: wss:; frame-ancestors 'none'; manifest-src 'self'; worker-src 'self'")


def get(url: str) -> requests.Response:
    """GET a URL."""
    return requests.get(url, timeout=TIMEOUT)


def test_every_response_carries_the_security_headers(live_server: str) -> None:
    for path in ("/healthz", "/", "/api/games/ZZZZZZ", "/sw.js"):
        headers = get(f"{live_server}{path}").headers
        assert headers["Content-Security-Policy"] == CSP
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"


def test_the_app_shell_serves_every_app_route(live_server: str) -> None:
    shell = get(f"{live_server}/").text
    assert "<html" in shell.lower()
    for route in ("join", "play", "screen", "host", "dice"):
        response = get(f"{live_server}/{route}/K7QX2M")
        assert response.status_code == 200 and response.text == shell


def test_the_service_worker_and_manifest(live_server: str) -> None:
    worker = get(f"{live_server}/sw.js")
    assert worker.status_code == 200 and worker.headers["Content-Type"].startswith("text/javascript")
    assert worker.headers["Cache-Control"] == "no-cache" and worker.headers["Service-Worker-Allowed"] == "/"
    manifest = get(f"{live_server}/manifest.webmanifest")
    assert manifest.status_code == 200
    assert manifest.headers["Content-Type"].startswith("application/manifest+json")
    assert get(f"{live_server}/js/app.js").status_code == 200
    assert get(f"{live_server}/js/../../pyproject.toml").status_code == 404


def test_the_api_works_without_the_web_app(start_server: StartServer) -> None:
    base = start_server(PWA_DIR="/nonexistent", RATE_LIMIT_GAMES="100000")
    assert get(f"{base}/").status_code == 404
    assert requests.post(f"{base}/api/games", json={}, timeout=TIMEOUT).status_code == 201


def test_the_join_url_and_its_qr_code(live_server: str) -> None:
    game = Game.create(live_server)
    response = requests.post(f"{live_server}/api/games", json={}, timeout=TIMEOUT).json()
    # the test server listens on 127.0.0.1 only (BIND_HOST), so its links carry that address
    assert response["join_url"] == f"{live_server}/join/{response['code']}"
    assert live_server.startswith("http://127.0.0.1:")
    assert len(response["code"]) == 6 and set(response["code"]) <= set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    qr = get(f"{game.url}/qr.svg")
    assert qr.status_code == 200 and qr.headers["Content-Type"].startswith("image/svg+xml")
    assert qr.headers["Cache-Control"] == "no-cache" and "<svg" in qr.text


def test_the_ruleset(live_server: str) -> None:
    game = Game.create(live_server)
    ruleset = get(f"{game.url}/ruleset").json()
    assert {"characters", "resources", "white_die", "costs", "caps", "hit_table", "damage", "events",
            "quests"} <= set(ruleset)


def test_each_game_gets_the_ruleset_of_its_own_options(live_server: str) -> None:
    # A ruleset is made once per game and options (web/service.py): games with other house rules
    # must never be handed another's.
    plain, other, same = (Game.create(live_server), Game.create(live_server, house_rules={"sunk_crew": 2}),
                          Game.create(live_server))
    rulesets = [get(f"{game.url}/ruleset") for game in (plain, other, same)]
    assert all(r.headers["Content-Type"] == "application/json" for r in rulesets)
    plain_rules, other_rules, same_rules = (r.json() for r in rulesets)
    assert plain_rules["sunk_crew"] == 1 and other_rules["sunk_crew"] == 2
    assert other_rules["options"]["house_rules"]["sunk_crew"] == 2 and plain_rules == same_rules


def test_the_openapi_document_covers_every_route_action_and_error(live_server: str) -> None:
    spec = get(f"{live_server}/api/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert {"/healthz", "/api/games", "/api/games/{code}", "/api/games/{code}/players",
            "/api/games/{code}/ruleset", "/api/games/{code}/actions", "/api/games/{code}/events",
            "/api/games/{code}/qr.svg", "/api/openapi.json", "/ws/games/{code}"} <= set(spec["paths"])
    actions = spec["paths"]["/api/games/{code}/actions"]["post"]
    quest = spec["components"]["schemas"]["Quest1607Action"]
    assert set(quest["discriminator"]["mapping"]) == set(GAMES["quest1607"].actions)
    assert {"200", "400", "401", "403", "404", "409", "413", "422", "429", "503"} <= set(actions["responses"])
    upgrade = spec["components"]["schemas"]["UpgradeAction"]
    assert upgrade["properties"]["part"]["enum"] == ["sails", "cannons", "crew"]
    assert upgrade.get("additionalProperties") is False
    assert {"error", "message"} <= set(spec["components"]["schemas"]["Error"]["required"])


def test_a_games_ruleset_with_its_house_defaults_comes_before_any_game(live_server: str) -> None:
    """The create form reads the numbers it starts from (GET /api/rulesets/{game}) from the server."""
    quest = requests.get(f"{live_server}/api/rulesets/quest1607", timeout=10)
    assert quest.status_code == 200 and quest.headers["Cache-Control"] == "public, max-age=3600"
    assert quest.json()["quests_per_level"] == {"default": 2, "allowed": [1, 2, 3]}
    assert quest.json()["sunk_crew"] == 1 and quest.json()["caps"]["ships"] == 3
    voyagers = requests.get(f"{live_server}/api/rulesets/voyagers", timeout=10).json()
    assert voyagers["house_defaults"]["starting_gold"] == 2
    unknown = requests.get(f"{live_server}/api/rulesets/chess", headers={"Accept-Language": "nl"}, timeout=10)
    assert unknown.status_code == 404 and unknown.json()["message"] == "Shipmate kent geen spel 'chess'."
