"""An action leaves nothing for the garbage collector: what it made goes when it ends.

At 1,000 tables each action under an Idempotency-Key once left a reference cycle (the key's answers
held the methods that made them), and with it the action's answer, its update and every view of it,
until a collection found them: a collection every second or so, up to 290 ms each, in which no
socket was served (the p99 at table pace was 200 ms; without the cycle, 19 ms; docs/PERFORMANCE.md).
"""

from __future__ import annotations

import gc
import secrets
from collections.abc import Iterator

import pytest

from shipmate.room import Room
from shipmate.rules import RuleViolation, Viewer, create
from shipmate.store import Answered, GameStore, client_for, hash_token
from shipmate.web.service import Caller, Keyed
from tests.store import counter_game  # noqa: F401  (registers the test game)


@pytest.fixture
def store(redis_url: str) -> Iterator[GameStore]:
    made = GameStore(client_for(redis_url), idle_ttl=600)
    yield made
    made.close()


@pytest.mark.parametrize("keyed", [False, True], ids=["bare", "under an Idempotency-Key"])
def test_an_action_and_a_refusal_leave_no_cycle_behind(store: GameStore, keyed: bool) -> None:
    code = secrets.token_hex(4).upper()
    state, event = create("test-counter", code, {}, secrets.token_hex(32))
    store.create(code, state, event, hash_token("host"))
    room = Room(code, store)
    player = Viewer(player="p1")
    caller = Caller(player, "token-hash", {"player": "p1"})
    room.act({"type": "add", "n": 1}, player)  # the commit script is loaded, the room knows the game
    gc.collect()
    gc.disable()
    try:
        for number in range(10):
            remember = Keyed(code, caller, f"key-{number}", "en").remember if keyed else None
            room.act({"type": "add", "n": 1}, player, remember=remember)
            refused = Keyed(code, caller, f"refused-{number}", "en").remember if keyed else None
            with pytest.raises(Answered if keyed else RuleViolation):  # the refusal, stored with a key
                room.act({"type": "add", "n": -1000}, player, remember=refused)
        del remember, refused
        assert gc.collect() == 0
    finally:
        gc.enable()
