"""The store against a real Redis: atomic, version-checked appends that never lose or duplicate."""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis

from shipmate.rules import RuleViolation, Viewer, create, replay
from shipmate.store import (
    Change,
    Claim,
    ClaimLost,
    Conflict,
    GameStore,
    Remember,
    Unavailable,
    connect,
    hash_token,
)
from shipmate.store import keys as k
from shipmate.store.idempotency import IDEMPOTENCY_TTL
from tests.fixtures_server import wait_for
from tests.store import counter_game  # noqa: F401  (registers the test game)
from tests.store.channels import follow, next_message

PLAYER = Viewer(player="p1")


@pytest.fixture
def store(redis_client: redis.Redis) -> GameStore:
    return GameStore(redis_client, idle_ttl=3600)


def new_code() -> str:
    return secrets.token_hex(4).upper()


@pytest.fixture
def code(store: GameStore) -> Iterator[str]:
    code = new_code()
    state, event = create("test-counter", code, {}, secrets.token_hex(32))
    store.create(code, state, event, hash_token("host-token"))
    yield code
    store.client.delete(k.version(code), k.state(code), k.events(code), k.tokens(code))


def test_a_new_game_is_stored_at_version_0_with_its_first_event(store: GameStore, code: str) -> None:
    state = store.load(code)
    assert state is not None and state["version"] == 0
    assert [e["type"] for e in store.events_since(code, -1)] == ["GameCreated"]
    assert store.events_since(code, 0) == []


def test_a_taken_code_is_refused(store: GameStore, code: str) -> None:
    state, event = create("test-counter", code, {}, secrets.token_hex(32))
    with pytest.raises(Conflict):
        store.create(code, state, event, hash_token("other"))
    assert store.role(code, hash_token("host-token")) == {"host": True}
    assert store.role(code, hash_token("other")) is None


def test_unknown_games_load_as_none(store: GameStore) -> None:
    assert store.load("NOSUCH") is None
    with pytest.raises(KeyError):
        store.act("NOSUCH", {"type": "add", "n": 1}, PLAYER)


def test_each_action_raises_the_version_by_one_and_appends_its_events(store: GameStore, code: str) -> None:
    for n in (3, 4, -2):
        store.act(code, {"type": "add", "n": n}, PLAYER)
    events = store.events_since(code, 0)
    assert [(e["version"], e["n"]) for e in events] == [(1, 3), (2, 4), (3, -2)]
    assert [e["version"] for e in store.events_since(code, 2)] == [3]
    state = store.load(code)
    assert state is not None and state["version"] == 3 and state["purse"] == 5


def test_a_refused_action_changes_nothing(store: GameStore, code: str) -> None:
    before = store.load(code)
    with pytest.raises(RuleViolation):
        store.act(code, {"type": "add", "n": -1}, PLAYER)
    assert store.load(code) == before
    assert store.events_since(code, 0) == []


def test_a_stale_expected_version_is_refused_before_the_rules(store: GameStore, code: str) -> None:
    store.act(code, {"type": "add", "n": 1}, PLAYER)
    with pytest.raises(Conflict) as caught:
        store.act(code, {"type": "add", "n": -100}, PLAYER, expected_version=0)
    assert caught.value.current == 1


def test_tokens_are_stored_hashed_with_the_join_that_made_them(store: GameStore, code: str) -> None:
    token = secrets.token_urlsafe(16)
    change = store.act(code, {"type": "join"}, Viewer(),
                       new_token=lambda events: (hash_token(token), {"player": events[0]["player_id"]}))
    assert change.events[0]["player_id"] == "p1"
    assert store.role(code, hash_token(token)) == {"player": "p1"}
    stored = store.client.hgetall(k.tokens(code))
    assert all(token.encode() not in key + value for key, value in stored.items())


def test_every_key_carries_the_hash_tag_and_expires_when_idle(store: GameStore, code: str) -> None:
    store.act(code, {"type": "add", "n": 1}, PLAYER)
    for name in (k.version(code), k.state(code), k.events(code), k.tokens(code)):
        assert f"{{{code}}}" in name
        assert 0 < store.client.ttl(name) <= 3600


def test_every_change_is_published_on_the_games_channel(store: GameStore, code: str) -> None:
    pubsub = store.client.pubsub()
    pubsub.subscribe(k.channel(code))
    assert pubsub.get_message(timeout=5)["type"] == "subscribe"
    store.act(code, {"type": "add", "n": 7}, PLAYER)
    message = pubsub.get_message(timeout=5)
    pubsub.close()
    body = json.loads(message["data"])
    assert body["version"] == 1 and body["events"][0]["n"] == 7 and body["state"]["purse"] == 7
    assert k.channel_code(message["channel"].decode()) == code


def next_change(pubsub: Any) -> int:
    """Return the version of the next message on a followed game's channel (-1 for a marker)."""
    return int(json.loads(next_message(pubsub)).get("version", -1))


def test_a_servers_commit_is_published_for_every_other_server_that_follows_the_game(
    redis_client: redis.Redis, code: str
) -> None:
    mine = GameStore(redis_client, idle_ttl=3600, server="a1")
    other = follow(redis_client, code, "b2")
    try:
        mine.act(code, {"type": "add", "n": 7}, PLAYER)
        assert next_change(other) == 1
    finally:
        other.close()


def test_a_commit_only_its_own_server_hears_is_not_published(redis_client: redis.Redis, code: str) -> None:
    # The committing server hands its change to its own sockets itself (web/rooms.py `committed`).
    mine = GameStore(redis_client, idle_ttl=3600, server="a1")
    own = follow(redis_client, code, "a1")
    try:
        mine.act(code, {"type": "add", "n": 7}, PLAYER)
        redis_client.publish(k.channel(code), '{"marker":true}')  # what follows the commit on the channel
        assert next_change(own) == -1  # the marker: nothing was published before it
        # Another server starts to follow the game: from then on the commits are published again.
        other = follow(redis_client, code, "b2")
        try:
            mine.act(code, {"type": "add", "n": 1}, PLAYER)
            assert next_change(other) == 2
            assert next_change(own) == 2
            # It stops following (its listener and the channel in one UNSUBSCRIBE): unheard again.
            other.unsubscribe(k.channel(code), k.listener(code, "b2"))
            assert [other.get_message(timeout=5)["type"] for _ in range(2)] == ["unsubscribe"] * 2
        finally:
            other.close()
        mine.act(code, {"type": "add", "n": 1}, PLAYER)
        redis_client.publish(k.channel(code), '{"marker":true}')
        assert next_change(own) == -1
    finally:
        own.close()


def test_a_store_of_no_server_publishes_every_commit(store: GameStore, code: str) -> None:
    # The CLI's store, say: it follows no game, so whoever listens counts.
    own = follow(store.client, code, "a1")
    try:
        store.act(code, {"type": "add", "n": 7}, PLAYER)
        assert next_change(own) == 1
    finally:
        own.close()


def in_threads(work: Callable[[int], None], count: int) -> list[BaseException]:
    """Run `work(0)` … `work(count - 1)` in threads at once; return what they raised."""
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            work(i)
        except BaseException as exc:  # collected for the main thread's assertion
            errors.append(exc)

    workers = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return errors


def test_threads_racing_on_one_game_lose_and_duplicate_nothing(
    store: GameStore, code: str, redis_url: str
) -> None:
    threads, per_thread = 8, 25

    def work(i: int) -> None:
        own = GameStore(redis.Redis.from_url(redis_url), idle_ttl=3600)
        try:
            for _ in range(per_thread):
                own.act(code, {"type": "add", "n": i + 1}, PLAYER)
        finally:
            own.close()

    assert not in_threads(work, threads)
    state = store.load(code)
    events = store.events_since(code, -1)
    assert state is not None
    assert state["version"] == threads * per_thread
    assert [e["version"] for e in events[1:]] == list(range(1, threads * per_thread + 1))
    assert state["purse"] == per_thread * sum(range(1, threads + 1))
    assert replay(events) == state


def test_threads_sharing_one_store_take_turns_on_its_connections_and_get_their_own_answers(
    store: GameStore, code: str
) -> None:
    threads, per_thread = 16, 20

    def work(i: int) -> None:
        for _ in range(per_thread):
            change = store.act(code, {"type": "add", "n": i + 1}, PLAYER)
            # each command's own answer, never another's: a version, a missing game, a state
            assert (store.version(code) or -1) >= change.state["version"]
            assert store.load(f"{code}-{i}") is None  # most of these games' commands take other lanes
            assert (store.load(code) or {})["version"] >= change.state["version"]

    assert not in_threads(work, threads)
    state = store.load(code)
    assert state is not None and state["version"] == threads * per_thread
    assert state["purse"] == per_thread * sum(range(1, threads + 1))
    assert replay(store.events_since(code, -1)) == state


def claim(store: GameStore, code: str, key: str, token: str = "t") -> Claim:
    """Claim an Idempotency-Key that must be new."""
    found = store.answers.remembered(code, token, key)
    assert isinstance(found, Claim), found
    return found


def test_an_idempotency_key_returns_the_first_answer(store: GameStore, code: str) -> None:
    first = claim(store, code, "key-1")
    assert store.answers.remember(first, {"status": 200, "body": {"version": 1}})
    assert store.answers.remembered(code, "t", "key-1") == {"status": 200, "body": {"version": 1}}
    assert isinstance(store.answers.remembered(code, "other-token", "key-1"), Claim)


def test_a_retry_waits_for_the_first_request_under_its_key(store: GameStore, code: str) -> None:
    first = claim(store, code, "slow")
    got: list[object] = []
    with store.answers.working(first):
        waiter = threading.Thread(target=lambda: got.append(store.answers.remembered(code, "t", "slow")))
        waiter.start()
        store.answers.remember(first, {"status": 422})
    waiter.join(timeout=20)
    assert got == [{"status": 422}]


def _answer(change: Change) -> dict[str, Any]:
    return {"status": 200, "body": {"version": change.state["version"], "purse": change.state["purse"]}}


def test_a_change_and_its_idempotent_answer_are_stored_in_one_step(store: GameStore, code: str) -> None:
    first = claim(store, code, "paid")
    got: list[object] = []
    with store.answers.working(first):
        waiter = threading.Thread(target=lambda: got.append(store.answers.remembered(code, "t", "paid")))
        waiter.start()
        change = store.act(code, {"type": "add", "n": 3}, PLAYER, remember=Remember(first, _answer))
    waiter.join(timeout=20)
    assert change.answer == {"status": 200, "body": {"version": 1, "purse": 3}}
    assert got == [change.answer]  # the retry that waited
    assert store.answers.remembered(code, "t", "paid") == change.answer
    raw = store.client.get(k.idempotency(code, "t", "paid"))
    assert raw is not None and json.loads(raw) == change.answer  # exactly the body the caller got
    assert 0 < store.client.ttl(k.idempotency(code, "t", "paid")) <= IDEMPOTENCY_TTL
    store.answers.forget(first)  # a stored answer outlives a failed request's clean-up
    assert store.answers.remembered(code, "t", "paid") == change.answer


def test_a_stale_commit_stores_neither_the_change_nor_its_answer(
    store: GameStore, redis_client: redis.Redis, code: str
) -> None:
    known = store.load(code)  # version 0
    other = GameStore(redis_client, idle_ttl=3600)
    other.act(code, {"type": "add", "n": 5}, PLAYER)  # version 1, unseen by `store`
    late = claim(store, code, "late")
    made: list[dict[str, Any]] = []

    def answer(change: Change) -> dict[str, Any]:
        made.append(_answer(change))
        return made[-1]

    change = store.act(code, {"type": "add", "n": 1}, PLAYER, known=known, remember=Remember(late, answer))
    # decided at version 0, refused by the commit, decided again at version 1: only that is stored
    assert [m["body"] for m in made] == [{"version": 1, "purse": 1}, {"version": 2, "purse": 6}]
    assert store.answers.remembered(code, "t", "late") == change.answer == made[-1]
    assert [e["version"] for e in store.events_since(code, -1)] == [0, 1, 2]
    stale = claim(store, code, "stale")
    with pytest.raises(Conflict):  # a stale expected_version: no change, and the key stays a claim
        store.act(code, {"type": "add", "n": 1}, PLAYER, expected_version=1,
                  remember=Remember(stale, _answer))
    assert redis_client.get(k.idempotency(code, "t", "stale")) == stale.owner.encode()
    state = store.load(code)
    assert state is not None and state["version"] == 2


def _lapse(store: GameStore, first: Claim) -> None:
    """Wait until Redis has let an unrenewed claim lapse."""
    wait_for(lambda: not store.client.exists(first.name), "the claim to lapse")


def test_a_retry_takes_over_a_lapsed_claim_and_the_slow_first_attempt_stores_nothing(
    redis_client: redis.Redis, code: str
) -> None:
    store = GameStore(redis_client, idle_ttl=3600, claim_lease=0.2)
    slow = claim(store, code, "k")  # the first attempt's server stalls: nothing renews its lease
    _lapse(store, slow)
    retry = claim(store, code, "k")  # the retry takes the key over, and works on it
    assert retry.owner != slow.owner
    with store.answers.working(retry):
        with pytest.raises(ClaimLost):  # the first attempt wakes up and commits: refused, nothing stored
            store.act(code, {"type": "add", "n": 7}, PLAYER, remember=Remember(slow, _answer))
        assert not store.answers.remember(slow, {"status": 422})  # nor can it store a refusal
        change = store.act(code, {"type": "add", "n": 7}, PLAYER, remember=Remember(retry, _answer))
    assert store.answers.remembered(code, "t", "k") == change.answer  # the first attempt's answer too
    assert [e["version"] for e in store.events_since(code, -1)] == [0, 1]  # applied once
    state = store.load(code)
    assert state is not None and state["purse"] == 7


def test_a_claim_taken_over_while_its_first_attempt_commits_is_applied_once(
    redis_client: redis.Redis, code: str
) -> None:
    """The two attempts race to commit the same key after a takeover: exactly one change lands."""
    store = GameStore(redis_client, idle_ttl=3600, claim_lease=0.5)
    rounds = 6
    for round_ in range(rounds):
        key = f"race-{round_}"
        slow = claim(store, code, key)
        _lapse(store, slow)
        retry = claim(store, code, key)
        outcomes: list[str] = []
        start = threading.Barrier(2)

        def attempt(owned: Claim, outcomes: list[str] = outcomes, start: threading.Barrier = start) -> None:
            start.wait()
            try:
                store.act(code, {"type": "add", "n": 1}, PLAYER, remember=Remember(owned, _answer))
                outcomes.append("applied")
            except ClaimLost:
                outcomes.append("lost")
            except Exception as exc:  # reported by the assertion below
                outcomes.append(repr(exc))

        threads = [threading.Thread(target=attempt, args=(c,)) for c in (slow, retry)]
        with store.answers.working(retry):  # the retry's server is alive: its lease holds
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        assert sorted(outcomes) == ["applied", "lost"], outcomes
    state = store.load(code)
    assert state is not None and state["version"] == state["purse"] == rounds


def test_a_working_claim_is_renewed_past_its_lease(redis_client: redis.Redis, code: str) -> None:
    store = GameStore(redis_client, idle_ttl=3600, claim_lease=0.3)
    first = claim(store, code, "long")
    with store.answers.working(first):
        seen = [store.client.pttl(first.name)]

        def renewed() -> bool:  # Redis shows the lease extended: it went up since it was read last
            seen.append(store.client.pttl(first.name))
            return seen[-1] > seen[-2]

        wait_for(renewed, "the lease to be renewed")
        with pytest.raises(Unavailable):  # a retry finds the key still claimed: it does not take over
            store.answers.remembered(code, "t", "long", wait=0)
        assert store.answers.remember(first, {"status": 422})
    assert store.answers.remembered(code, "t", "long") == {"status": 422}


def test_requests_are_counted_per_client_in_a_window(store: GameStore) -> None:
    who = secrets.token_hex(4)
    assert [store.hit("join", who, 60) for _ in range(3)] == [1, 2, 3]
    assert store.hit("join", "someone-else-" + who, 60) == 1


def test_an_unreachable_redis_raises_unavailable() -> None:
    from shipmate.embedded import free_port

    dead = GameStore(connect(f"redis://127.0.0.1:{free_port()}/0"))
    assert not dead.ping()
    with pytest.raises(Unavailable):
        dead.load("ABCDEF")


def test_a_refusal_is_never_decided_on_a_known_state_that_is_stale(
    store: GameStore, code: str
) -> None:
    known = store.load(code)
    GameStore(store.client).act(code, {"type": "add", "n": 5}, PLAYER)  # another process
    change = store.act(code, {"type": "add", "n": -3}, PLAYER, known=known)  # refused on the stale purse of 0
    assert change.state["purse"] == 2 and change.state["version"] == 2
