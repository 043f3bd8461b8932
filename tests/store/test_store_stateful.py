"""A hypothesis state machine drives the store: whatever the order of adds, refusals, stale
versions and retried idempotency keys, the versions stay gapless, nothing is applied twice and the
event stream replays to the snapshot."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
import redis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from shipmate.codec import dumpb, loads
from shipmate.room import Change, Remember, Room
from shipmate.rules import RuleViolation, Viewer, create, replay
from shipmate.store import Answered, Conflict, GameStore, hash_token, keys
from tests.store import counter_game  # noqa: F401  (registers the test game)

PLAYER = Viewer(player="p1")


def _answer(change: Change) -> dict[str, Any]:
    return {"status": 200, "version": change.state["version"]}


def _refusal(exc: Exception) -> bytes:
    assert isinstance(exc, RuleViolation)  # no expected version is named under a key here
    return dumpb({"status": 422, "rule": exc.rule})


class StoreMachine(RuleBasedStateMachine):
    """The model: the purse total and the version the store must be at."""

    url: str = ""

    def __init__(self) -> None:
        super().__init__()
        self.store = GameStore(redis.Redis.from_url(self.url), idle_ttl=600)
        self.purse = 0
        self.version = 0
        self.answers: dict[str, dict[str, Any]] = {}

    @initialize()
    def new_game(self) -> None:
        self.code = secrets.token_hex(4).upper()
        state, event = create("test-counter", self.code, {}, secrets.token_hex(32))
        self.store.create(self.code, state, event, hash_token("host"))
        self.room = Room(self.code, self.store)

    def _act(self, n: int, expected: int | None = None, remember: Remember | None = None) -> dict[str, Any]:
        try:
            change = self.room.act({"type": "add", "n": n}, PLAYER, expected_version=expected,
                                   remember=remember)
        except RuleViolation as exc:
            return {"status": 422, "rule": exc.rule}
        except Conflict as exc:
            return {"status": 409, "current": exc.current}
        except Answered as exc:
            found: dict[str, Any] = loads(exc.answer)
            return found
        return loads(change.answer) if change.answer else _answer(change)

    @rule(n=st.integers(-5, 5))
    def add(self, n: int) -> None:
        answer = self._act(n)
        if self.purse + n < 0:
            assert answer == {"status": 422, "rule": "X1"}
        else:
            self.purse += n
            self.version += 1
            assert answer == {"status": 200, "version": self.version}

    @rule(n=st.integers(0, 5), behind=st.integers(1, 3))
    def stale_expected_version(self, n: int, behind: int) -> None:
        assert self._act(n, expected=self.version - behind) == {"status": 409, "current": self.version}

    @rule(key=st.sampled_from(["a", "b", "c"]), n=st.integers(-3, 3))
    def retry_with_an_idempotency_key(self, key: str, n: int) -> None:
        remember = Remember(keys.idempotency(self.code, "tok", key), lambda c: dumpb(_answer(c)), _refusal)
        answer = self._act(n, remember=remember)
        if key in self.answers:  # a retry, whatever its amount: the first answer, nothing applied
            assert answer == self.answers[key]
            return
        if self.purse + n < 0:
            assert answer == {"status": 422, "rule": "X1"}
        else:
            self.purse += n
            self.version += 1
            assert answer == {"status": 200, "version": self.version}
        self.answers[key] = answer

    @invariant()
    def snapshot_matches_the_model_and_the_stream(self) -> None:
        state = self.store.load(self.code)
        assert state is not None
        assert state["purse"] == self.purse >= 0
        assert state["version"] == self.version
        events = self.store.events_since(self.code, -1)
        assert [e["version"] for e in events] == list(range(self.version + 1))
        assert replay(events) == state

    def teardown(self) -> None:
        self.store.close()


@pytest.mark.slow
def test_the_store_never_loses_or_duplicates(redis_url: str) -> None:
    StoreMachine.url = redis_url
    run = StoreMachine.TestCase()
    run.settings = settings(max_examples=40, stateful_step_count=30, deadline=None,
                            suppress_health_check=[HealthCheck.too_slow])
    run.runTest()
