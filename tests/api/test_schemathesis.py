"""Schemathesis over the whole OpenAPI document, the socket's handshake included, finds nothing.

Every check runs but positive_data_acceptance: a request the document allows may still meet the
game's state (an id this game does not have, a used link, a rule of the turn), which the document
says as 400, 409, 410 or 422. tests/api/test_openapi.py runs that check too, with those statuses
allowed, and the coverage phase over the two large bodies (a new game's options and the actions),
which this run only fuzzes: their thousands of cases would take minutes here.
"""

from __future__ import annotations

import json

import pytest
import requests
import schemathesis
from schemathesis import Case
from schemathesis.config import SchemathesisConfig

from shipmate.web.openapi import build_spec
from tests.api.client import TIMEOUT, Game, bearer
from tests.fixtures_server import TEST_LIMITS, StartServer

EXAMPLES = 25
SOCKET = "/ws/games/{code}"
PLACEHOLDER = "K7QX2M"
"""The code the generated requests name; the test sends each to a real game instead (below)."""

DOCUMENT = json.loads(json.dumps(build_spec()))
"""The document as the server serves it (read when the tests are collected, before a server runs)."""

schema = schemathesis.openapi.from_dict(DOCUMENT, config=SchemathesisConfig.from_dict({
    "seed": 1607,
    "generation": {"max-examples": EXAMPLES},
    "checks": {"positive_data_acceptance": {"enabled": False}},
    "parameters": {"path.code": PLACEHOLDER},
    "operations": [
        *({"include-path": path, "phases": {"coverage": {"enabled": False}}}
          for path in ("/api/games", "/api/games/{code}/actions")),
        # a 101 is the socket's answer to a handshake, not a server error
        {"include-path": SOCKET,
         "checks": {"not_a_server_error": {"expected-statuses": ["101", "2xx", "3xx", "4xx"]}}},
    ],
}))


@pytest.fixture(scope="module")
def server(start_shared_server: StartServer) -> str:
    """A server that lets one address make as many games, joins and sockets as the run makes."""
    return start_shared_server(WS_MAX_PER_ADDRESS="100000", **TEST_LIMITS)


@pytest.fixture(scope="module")
def model(server: str) -> Game:
    """The game of the requests that change nothing: a game in play, its first player's turn."""
    game = Game.create(server)
    game.seat(2)
    return game


def test_the_server_serves_the_document_that_schemathesis_reads(server: str) -> None:
    assert requests.get(f"{server}/api/openapi.json", timeout=TIMEOUT).json() == DOCUMENT


@schema.parametrize()
def test_schemathesis_with_every_check_but_positive_data_acceptance_finds_nothing(
    case: Case, server: str, model: Game
) -> None:
    game, token = model, model.players["p1"]
    if case.path == "/api/games/{code}/actions":
        # an action goes to a game of its own in play, its first player's turn (the first to join)
        game = Game.create(server)
        token = game.players[game.seat(2)[0]]
    elif (case.method == "POST" and case.path.startswith("/api/games/")) or case.path == SOCKET:
        # a join, a hand-over, a seat, a dice device or a socket goes to a game of its own in its lobby
        game = Game.create(server)
        token = game.host
    if case.path_parameters and case.path_parameters.get("code") == PLACEHOLDER:
        case.path_parameters["code"] = game.code
    # A session per request, closed after it: a 101 leaves its connection a socket, which no later
    # request may be sent on, and closing it ends the socket on the server. Its default headers go:
    # schemathesis puts a session's headers over the case's, and requests' `Connection: keep-alive`
    # would replace the handshake's `Connection: Upgrade`.
    with requests.Session() as session:
        session.headers.clear()
        case.call_and_validate(base_url=server, session=session, headers=bearer(token))
