"""Idempotency-Key: the first answer, success or refusal, is every retry's answer; applied once."""

from __future__ import annotations

import json
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from shipmate.store import hash_token, keys
from tests.api.client import Game


@pytest.fixture
def game(live_server: str) -> Game:
    """A game in play: p1 to roll."""
    game = Game.create(live_server)
    game.seat(2)
    return game


def test_a_retry_gets_the_same_answer_and_the_action_runs_once(game: Game) -> None:
    key = str(uuid.uuid4())
    first = game.act(game.players["p1"], {"type": "roll"}, key=key)
    again = game.act(game.players["p1"], {"type": "roll"}, key=key)
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert game.state()["version"] == first.json()["version"]
    # without the key the same action is a new one, and T1 refuses a second roll
    assert game.act(game.players["p1"], {"type": "roll"}).json()["rule"] == "T1"


def test_a_change_is_stored_with_the_answer_its_caller_got(game: Game, redis_client: redis.Redis) -> None:
    key = str(uuid.uuid4())
    token = game.players["p1"]
    first = game.act(token, {"type": "roll"}, key=key)
    assert first.status_code == 200
    record = redis_client.get(keys.idempotency(game.code, hash_token(token), key))
    assert record is not None and json.loads(record) == {"status": 200, "body": first.json()}
    again = game.act(token, {"type": "roll"}, key=key)
    assert (again.status_code, again.content) == (200, first.content)


def test_a_refusal_is_replayed_too_even_when_the_action_would_now_succeed(game: Game) -> None:
    key = str(uuid.uuid4())
    refused = game.act(game.players["p1"], {"type": "end_turn"}, key=key)
    assert refused.status_code == 422
    game.ok(game.players["p1"], {"type": "roll"})
    again = game.act(game.players["p1"], {"type": "end_turn"}, key=key)
    assert (again.status_code, again.json()) == (422, refused.json())
    assert game.state()["turn"]["player"] == "p1"


def test_a_key_belongs_to_its_token(game: Game) -> None:
    key = str(uuid.uuid4())
    assert game.act(game.players["p1"], {"type": "roll"}, key=key).status_code == 200
    other = game.act(game.players["p2"], {"type": "roll"}, key=key)
    assert other.status_code == 422 and other.json()["rule"] == "T5"


def test_concurrent_retries_wait_for_the_first_and_share_its_answer(game: Game) -> None:
    key = str(uuid.uuid4())
    version = game.state()["version"]

    def post(_: int) -> tuple[int, dict[str, object]]:
        response = game.act(game.players["p1"], {"type": "roll"}, key=key)
        return response.status_code, response.json()

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(post, range(8)))
    assert all(answer == answers[0] for answer in answers)
    assert answers[0][0] == 200
    assert game.state()["version"] == version + 1


def test_a_malformed_key_is_400_and_nothing_runs(game: Game) -> None:
    version = game.state()["version"]
    response = game.act(game.players["p1"], {"type": "roll"}, key="x" * 129)
    assert response.status_code == 400 and "Idempotency-Key" in response.json()["fields"]
    assert game.state()["version"] == version
