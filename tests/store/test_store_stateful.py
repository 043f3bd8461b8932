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

from shipmate.rules import RuleViolation, Viewer, create, replay
from shipmate.store import Change, Claim, Conflict, GameStore, Remember, hash_token
from tests.store import counter_game  # noqa: F401  (registers the test game)

PLAYER = Viewer(player="p1")


def _answer(change: Change) -> dict[str, Any]:
    return {"status": 200, "version": change.state["version"]}


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

    def _act(self, n: int, expected: int | None = None, remember: Remember | None = None) -> dict[str, Any]:
        try:
            change = self.store.act(self.code, {"type": "add", "n": n}, PLAYER, expected_version=expected,
                                    remember=remember)
        except RuleViolation as exc:
            return {"status": 422, "rule": exc.rule}
        except Conflict as exc:
            return {"status": 409, "current": exc.current}
        return change.answer or _answer(change)

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
        first = self.store.answers.remembered(self.code, "tok", key)
        if isinstance(first, Claim):  # a change's commit stores its answer; a refusal is stored apart
            answer = self._act(n, remember=Remember(first, _answer))
            if answer["status"] == 200:
                self.purse += n
                self.version += 1
            else:
                assert self.store.answers.remember(first, answer)
            self.answers[key] = answer
        else:
            assert first == self.answers[key]

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
