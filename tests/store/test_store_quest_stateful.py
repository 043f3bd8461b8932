"""A hypothesis state machine drives the real Quest 1607 engine through the store on a real Redis.

Three captains roll, end turns, trade with the market, the bank and each other, upgrade, and the
host corrects and undoes; some actions carry a stale `expected_version`, some an Idempotency-Key
that is retried. After every step the stored game is audited (tests/ledger.py): versions gapless,
the stream replays to the snapshot, every resource accounted for and none negative, no offer
accepted twice; and the store is at the version the model counted, so no key applied twice.
"""

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
from shipmate.rules import HOST, PUBLIC, ShipmateError, State, Viewer, create
from shipmate.store import Answered, Conflict, GameStore, hash_token, keys
from shipmate.web.service import update_body
from tests.ledger import audit
from tests.rules.quest import SEED
from tests.rules.quest_play import BASE, CHARACTERS, NAMES

PLAYERS = ("p1", "p2", "p3")
KEYS = ("k1", "k2", "k3", "k4")

resources = st.sampled_from(BASE)
counts = st.dictionaries(resources, st.integers(1, 3), min_size=1, max_size=2)
who = st.sampled_from(["active", "active", "active", "other"])
"""Mostly the active captain, sometimes another (refused: T5)."""
expected = st.sampled_from(["none", "none", "current", "stale"])
"""How an action names the version it was decided on: not at all, the current one, an old one."""
keyed_kinds = st.sampled_from(["roll", "end_turn", "market", "adjust", "upgrade"])


class QuestStoreMachine(RuleBasedStateMachine):
    """The model: the version the store must be at, and the first answer under each key."""

    url: str = ""

    def __init__(self) -> None:
        super().__init__()
        self.store = GameStore(redis.Redis.from_url(self.url), idle_ttl=600)
        self.version = 0
        self.keyed: dict[str, tuple[dict[str, Any], Viewer]] = {}
        self.answers: dict[str, dict[str, Any]] = {}

    @initialize()
    def three_captains_start(self) -> None:
        self.code = secrets.token_hex(4).upper()
        state, event = create("quest1607", self.code, {}, SEED)
        self.store.create(self.code, state, event, hash_token("host"))
        self.room = Room(self.code, self.store)
        for name, character in zip(NAMES, CHARACTERS[: len(PLAYERS)], strict=False):
            self.room.act({"type": "join", "name": name, "character": character}, PUBLIC)
        self.room.act({"type": "start"}, HOST)
        for pid in PLAYERS:  # stock to trade and build with
            self.room.act({"type": "adjust", "player": pid, "resources": dict.fromkeys(BASE, 6),
                           "reason": "supplies"}, HOST)
        self.version = 2 * len(PLAYERS) + 1

    # ---- helpers ---------------------------------------------------------------------------

    def _state(self) -> State:
        state = self.store.load(self.code)
        assert state is not None
        return state

    def _captain(self, which: str) -> Viewer:
        active = self._state()["turn"]["player"]
        if which == "active":
            return Viewer(player=active)
        return Viewer(player=next(pid for pid in PLAYERS if pid != active))

    def _rolled(self) -> Viewer:
        """Return the active captain, who rolls first if they have not yet (T1)."""
        state = self._state()
        captain = Viewer(player=state["turn"]["player"])
        if not state["turn"]["rolled"]:
            assert self._act({"type": "roll"}, captain)["status"] == 200
        return captain

    def _act(self, action: dict[str, Any], actor: Viewer, version: str = "none") -> dict[str, Any]:
        """Run an action through the store; check and count the outcome in the model."""
        stale = version == "stale"
        named = {"none": None, "current": self.version, "stale": self.version - 1}[version]
        try:
            change = self.room.act(action, actor, expected_version=named)
        except Conflict as exc:
            assert stale and exc.current == self.version
            return {"status": 409, "body": {"version": exc.current}}
        except ShipmateError as exc:
            assert not stale, "expected_version is checked before the rules"
            return {"status": exc.status, "body": {"rule": getattr(exc, "rule", None)}}
        assert not stale
        self.version += 1
        assert change.state["version"] == self.version
        assert all(event["version"] == self.version for event in change.events)
        return _answer(change, actor)

    # ---- rules -----------------------------------------------------------------------------

    @rule(which=who, version=expected)
    def roll(self, which: str, version: str) -> None:
        self._act({"type": "roll"}, self._captain(which), version)

    @rule(which=who, version=expected)
    def end_turn(self, which: str, version: str) -> None:
        self._act({"type": "end_turn"}, self._captain(which), version)

    @rule(give=resources, get=resources, version=expected)
    def market(self, give: str, get: str, version: str) -> None:
        self._act({"type": "market", "give": give, "get": get}, self._rolled(), version)

    @rule(give=resources, get=resources)
    def bank(self, give: str, get: str) -> None:
        self._act({"type": "bank", "give": {give: 5}, "get": get}, self._rolled())

    @rule(ship=st.integers(1, 2), part=st.sampled_from(["sails", "cannons", "crew"]))
    def upgrade(self, ship: int, part: str) -> None:
        self._act({"type": "upgrade", "ship": ship, "part": part}, self._rolled())

    @rule(to=st.integers(0, 3), give=counts, get=counts)
    def offer(self, to: int, give: dict[str, int], get: dict[str, int]) -> None:
        """Offer a trade to another captain (to oneself, `to` 0: refused)."""
        captain = self._rolled()
        other = PLAYERS[(PLAYERS.index(str(captain.player)) + to) % len(PLAYERS)]
        self._act({"type": "offer", "to": other, "give": give, "get": get}, captain)

    @rule(answer=st.sampled_from(["accept", "accept", "decline", "withdraw"]), pick=st.integers(0, 9),
          version=expected)
    def answer_an_offer(self, answer: str, pick: int, version: str) -> None:
        offers = self._state()["offers"]
        if not offers:  # no such offer (M1)
            self._act({"type": answer, "offer_id": "o99"}, self._captain("other"), version)
            return
        offer = offers[pick % len(offers)]
        actor = Viewer(player=offer["from"] if answer == "withdraw" else offer["to"])
        self._act({"type": answer, "offer_id": offer["id"]}, actor, version)

    @rule(player=st.sampled_from(PLAYERS), resource=resources, n=st.integers(-3, 6))
    def host_adjusts(self, player: str, resource: str, n: int) -> None:
        self._act({"type": "adjust", "player": player, "resources": {resource: n}, "reason": "table"},
                  HOST)

    @rule(version=expected)
    def host_undoes(self, version: str) -> None:
        self._act({"type": "undo"}, HOST, version)

    @rule(key=st.sampled_from(KEYS), kind=keyed_kinds, resource=resources)
    def send_or_retry_with_a_key(self, key: str, kind: str, resource: str) -> None:
        """Send an action under an Idempotency-Key, or retry the one first sent under it."""
        if key not in self.keyed:
            actor = HOST if kind == "adjust" else self._captain("active")
            self.keyed[key] = ({"roll": {"type": "roll"}, "end_turn": {"type": "end_turn"},
                                "market": {"type": "market", "give": resource, "get": "food"},
                                "adjust": {"type": "adjust", "player": "p1", "resources": {resource: 2},
                                           "reason": "key"},
                                "upgrade": {"type": "upgrade", "ship": 1, "part": "sails"}}[kind], actor)
        action, actor = self.keyed[key]
        token = f"token-of-{actor.player or 'host'}"
        remember = Remember(keys.idempotency(self.code, token, key), lambda c: dumpb(_answer(c, actor)),
                            _refusal)
        try:
            change = self.room.act(action, actor, remember=remember)
        except Answered as exc:  # a retry, or a first answer that is a refusal: nothing applied
            first = key not in self.answers
            answer = self.answers.setdefault(key, loads(exc.answer))
            assert loads(exc.answer) == answer
            assert not first or answer["status"] != 200
        else:
            assert key not in self.answers, "a retry was applied again"
            self.version += 1
            assert change.answer is not None
            answer = self.answers[key] = loads(change.answer)
            assert answer["body"]["version"] == self.version
        assert loads(self.store.client.get(remember.name) or b"null") == self.answers[key]

    # ---- invariants ------------------------------------------------------------------------

    @invariant()
    def the_stored_game_is_sound(self) -> None:
        state = self._state()
        assert state["version"] == self.version  # nothing lost, nothing applied twice
        audit(self.store.events_since(self.code, -1), state)

    def teardown(self) -> None:
        self.store.close()


def _answer(change: Change, viewer: Viewer) -> dict[str, Any]:
    return {"status": 200, "body": update_body(change.state, change.events, viewer)}


def _refusal(exc: Exception) -> bytes:
    assert isinstance(exc, ShipmateError)  # no expected version is named under a key here
    return dumpb({"status": exc.status, "body": {"rule": getattr(exc, "rule", None)}})


@pytest.mark.slow
def test_quest_1607_through_the_store_never_loses_or_duplicates(redis_url: str) -> None:
    QuestStoreMachine.url = redis_url
    run = QuestStoreMachine.TestCase()
    run.settings = settings(max_examples=50, stateful_step_count=50, deadline=None, derandomize=True,
                            database=None, suppress_health_check=[HealthCheck.too_slow])
    run.runTest()
