"""The store against a real Redis, acted on through a game's room as the app does: atomic,
version-checked appends that never lose or duplicate."""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis

from shipmate.codec import dumpb
from shipmate.room import Change, Remember, Room
from shipmate.rules import RuleViolation, Viewer, apply, create, replay
from shipmate.store import Answered, Conflict, GameStore, Unavailable, client_for, hash_token
from shipmate.store import keys as k
from shipmate.store.idempotency import IDEMPOTENCY_TTL
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
        Room("NOSUCH", store).act({"type": "add", "n": 1}, PLAYER)


def test_each_action_raises_the_version_by_one_and_appends_its_events(store: GameStore, code: str) -> None:
    for n in (3, 4, -2):
        Room(code, store).act({"type": "add", "n": n}, PLAYER)
    events = store.events_since(code, 0)
    assert [(e["version"], e["n"]) for e in events] == [(1, 3), (2, 4), (3, -2)]
    assert [e["version"] for e in store.events_since(code, 2)] == [3]
    state = store.load(code)
    assert state is not None and state["version"] == 3 and state["purse"] == 5
    # up to a state's version: the events that led to it, none that came after it was read
    assert [e["version"] for e in store.events_since(code, 0, upto=2)] == [1, 2]
    assert [e["version"] for e in store.events_since(code, -1, upto=0)] == [0]
    assert store.events_since(code, 2, upto=2) == [] and store.events_since(code, 3, upto=1) == []
    assert [e["version"] for e in store.events_since(code, 1, upto=2**53)] == [2, 3]


def test_a_commit_decided_on_a_stale_version_stores_nothing(store: GameStore, code: str) -> None:
    # The store decides nothing: it stores a change only on the version it was decided on.
    before = store.load(code)
    assert before is not None
    after, events = apply(before, {"type": "add", "n": 2}, PLAYER)
    store.commit(code, 0, after, events)
    with pytest.raises(Conflict) as caught:
        store.commit(code, 0, after, events)
    assert caught.value.current == 1
    assert store.load(code) == after and [e["version"] for e in store.events_since(code, -1)] == [0, 1]


def test_a_refused_action_changes_nothing(store: GameStore, code: str) -> None:
    before = store.load(code)
    with pytest.raises(RuleViolation):
        Room(code, store).act({"type": "add", "n": -1}, PLAYER)
    assert store.load(code) == before
    assert store.events_since(code, 0) == []


def test_a_stale_expected_version_is_refused_before_the_rules(store: GameStore, code: str) -> None:
    Room(code, store).act({"type": "add", "n": 1}, PLAYER)
    with pytest.raises(Conflict) as caught:
        Room(code, store).act({"type": "add", "n": -100}, PLAYER, expected_version=0)
    assert caught.value.current == 1


def test_tokens_are_stored_hashed_with_the_join_that_made_them(store: GameStore, code: str) -> None:
    token = secrets.token_urlsafe(16)
    change = Room(code, store).act({"type": "join"}, Viewer(),
                       new_token=lambda events: (hash_token(token), {"player": events[0]["player_id"]}))
    assert change.events[0]["player_id"] == "p1"
    assert store.role(code, hash_token(token)) == {"player": "p1"}
    stored = store.client.hgetall(k.tokens(code))
    assert all(token.encode() not in key + value for key, value in stored.items())


def test_every_key_carries_the_hash_tag_and_expires_when_idle(store: GameStore, code: str) -> None:
    Room(code, store).act({"type": "add", "n": 1}, PLAYER)
    for name in (k.version(code), k.state(code), k.events(code), k.tokens(code)):
        assert f"{{{code}}}" in name
        assert 0 < store.client.ttl(name) <= 3600


def test_every_change_is_published_on_the_games_channel(store: GameStore, code: str) -> None:
    pubsub = store.client.pubsub()
    pubsub.subscribe(k.channel(code))
    assert pubsub.get_message(timeout=5)["type"] == "subscribe"
    Room(code, store).act({"type": "add", "n": 7}, PLAYER)
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
        Room(code, mine).act({"type": "add", "n": 7}, PLAYER)
        assert next_change(other) == 1
    finally:
        other.close()


def test_a_commit_only_its_own_server_hears_is_not_published(redis_client: redis.Redis, code: str) -> None:
    # The committing server hands its change to its own sockets itself (room/room.py `Room.act`).
    mine = GameStore(redis_client, idle_ttl=3600, server="a1")
    own = follow(redis_client, code, "a1")
    try:
        Room(code, mine).act({"type": "add", "n": 7}, PLAYER)
        redis_client.publish(k.channel(code), '{"marker":true}')  # what follows the commit on the channel
        assert next_change(own) == -1  # the marker: nothing was published before it
        # Another server starts to follow the game: from then on the commits are published again.
        other = follow(redis_client, code, "b2")
        try:
            Room(code, mine).act({"type": "add", "n": 1}, PLAYER)
            assert next_change(other) == 2
            assert next_change(own) == 2
            # It stops following (its listener and the channel in one UNSUBSCRIBE): unheard again.
            other.unsubscribe(k.channel(code), k.listener(code, "b2"))
            assert [other.get_message(timeout=5)["type"] for _ in range(2)] == ["unsubscribe"] * 2
        finally:
            other.close()
        Room(code, mine).act({"type": "add", "n": 1}, PLAYER)
        redis_client.publish(k.channel(code), '{"marker":true}')
        assert next_change(own) == -1
    finally:
        own.close()


def test_a_store_of_no_server_publishes_every_commit(store: GameStore, code: str) -> None:
    # The CLI's store, say: it follows no game, so whoever listens counts.
    own = follow(store.client, code, "a1")
    try:
        Room(code, store).act({"type": "add", "n": 7}, PLAYER)
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
                Room(code, own).act({"type": "add", "n": i + 1}, PLAYER)
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
            change = Room(code, store).act({"type": "add", "n": i + 1}, PLAYER)
            # each command's own answer, never another's: a version, a missing game, a state
            assert (store.version(code) or -1) >= change.state["version"]
            assert store.load(f"{code}-{i}") is None  # most of these games' commands take other lanes
            assert (store.load(code) or {})["version"] >= change.state["version"]

    assert not in_threads(work, threads)
    state = store.load(code)
    assert state is not None and state["version"] == threads * per_thread
    assert state["purse"] == per_thread * sum(range(1, threads + 1))
    assert replay(store.events_since(code, -1)) == state


def keyed(code: str, key: str, token: str = "t", made: list[bytes] | None = None) -> Remember:
    """An Idempotency-Key of `token` whose answers are ``{"status", "body"}`` of the purse; each
    answer made is noted in `made`."""

    def noted(answer: dict[str, Any]) -> bytes:
        raw = dumpb(answer)
        if made is not None:
            made.append(raw)
        return raw

    def success(change: Change) -> bytes:
        state = change.state
        return noted({"status": 200, "body": {"version": state["version"], "purse": state["purse"]}})

    def refusal(exc: Exception) -> bytes:
        if isinstance(exc, Conflict):
            return noted({"status": 409, "body": {"current": exc.current}})
        return noted({"status": 422, "body": {"error": str(exc)}})

    return Remember(k.idempotency(code, token, key), success, refusal)


def answered(store: GameStore, code: str, n: int, remember: Remember, **options: Any) -> dict[str, Any]:
    """Act under a key that must hold an answer already (or now a refusal): the answer it holds."""
    with pytest.raises(Answered) as caught:
        Room(code, store).act({"type": "add", "n": n}, PLAYER, remember=remember, **options)
    found: dict[str, Any] = json.loads(caught.value.answer)
    return found


def test_a_change_and_its_idempotent_answer_are_stored_in_one_step(store: GameStore, code: str) -> None:
    key = keyed(code, "paid")
    change = Room(code, store).act({"type": "add", "n": 3}, PLAYER, remember=key)
    assert change.answer is not None and json.loads(change.answer) == {"status": 200,
                                                                        "body": {"version": 1, "purse": 3}}
    assert store.client.get(key.name) == change.answer  # exactly the bytes the caller answers with
    assert 0 < store.client.ttl(key.name) <= IDEMPOTENCY_TTL
    # a retry, whatever its action, answers the first answer and applies nothing
    assert answered(store, code, 5, key) == json.loads(change.answer)
    assert answered(store, code, -100, key) == json.loads(change.answer)
    state = store.load(code)
    assert state is not None and (state["version"], state["purse"]) == (1, 3)
    # the same key of another token is another key
    other = Room(code, store).act({"type": "add", "n": 1}, PLAYER, remember=keyed(code, "paid", "u"))
    assert other.state["purse"] == 4


def test_a_refusal_is_stored_and_replayed_even_when_the_action_would_now_succeed(
    store: GameStore, code: str
) -> None:
    key = keyed(code, "broke")
    refused = answered(store, code, -2, key)  # the purse is empty: refused by X1, and stored
    assert refused["status"] == 422 and store.client.get(key.name) == dumpb(refused)
    Room(code, store).act({"type": "add", "n": 5}, PLAYER)
    assert answered(store, code, -2, key) == refused
    state = store.load(code)
    assert state is not None and (state["version"], state["purse"]) == (1, 5)


def test_a_stale_commit_stores_neither_the_change_nor_its_answer(
    store: GameStore, redis_client: redis.Redis, code: str
) -> None:
    known = store.load(code)  # version 0
    elsewhere = GameStore(redis_client, idle_ttl=3600)
    Room(code, elsewhere).act({"type": "add", "n": 5}, PLAYER)  # version 1, unseen
    made: list[bytes] = []
    key = keyed(code, "late", made=made)
    change = Room(code, store).act({"type": "add", "n": 1}, PLAYER, known=known, remember=key)
    # decided at version 0, refused by the commit, decided again at version 1: only that is stored
    assert [json.loads(m)["body"] for m in made] == [{"version": 1, "purse": 1}, {"version": 2, "purse": 6}]
    assert store.client.get(key.name) == change.answer == made[-1]
    assert [e["version"] for e in store.events_since(code, -1)] == [0, 1, 2]


def test_a_refusal_decided_on_a_stale_known_state_is_not_stored_but_decided_again(
    store: GameStore, code: str
) -> None:
    known = store.load(code)  # an empty purse
    Room(code, GameStore(store.client)).act({"type": "add", "n": 5}, PLAYER)  # another process
    made: list[bytes] = []
    key = keyed(code, "k", made=made)
    change = Room(code, store).act({"type": "add", "n": -3}, PLAYER, known=known, remember=key)
    assert [json.loads(m)["status"] for m in made] == [422, 200]  # the refusal never reached the key
    assert change.state["purse"] == 2 and store.client.get(key.name) == made[-1]


def test_a_stale_expected_version_under_a_key_is_stored_as_its_409(store: GameStore, code: str) -> None:
    Room(code, store).act({"type": "add", "n": 1}, PLAYER)
    key = keyed(code, "stale")
    assert answered(store, code, 1, key, expected_version=0) == {"status": 409, "body": {"current": 1}}
    assert answered(store, code, 1, key, expected_version=1) == {"status": 409, "body": {"current": 1}}
    state = store.load(code)
    assert state is not None and state["version"] == 1


def test_a_refusal_of_the_request_itself_is_stored_whatever_the_version(store: GameStore, code: str) -> None:
    key = keyed(code, "bad")
    first = json.loads(Room(code, store).refuse(key, ValueError("malformed")))
    assert first == {"status": 422, "body": {"error": "malformed"}}
    Room(code, store).act({"type": "add", "n": 1}, PLAYER)
    assert answered(store, code, 1, key) == first  # its retry is answered the same, and applies nothing
    assert json.loads(Room(code, store).refuse(key, ValueError("other"))) == first
    state = store.load(code)
    assert state is not None and state["version"] == 1


@pytest.mark.parametrize("amounts", [(1, 1), (1, -100)], ids=["twins", "a success and a refusal"])
def test_requests_racing_under_one_key_apply_once_and_share_one_answer(
    store: GameStore, code: str, redis_url: str, amounts: tuple[int, int]
) -> None:
    """Nothing locks a key beforehand: each request decides, and the first step to run stores."""
    rounds, threads = 10, 6
    for round_ in range(rounds):
        start = threading.Barrier(threads)
        answers: list[bytes] = []

        def attempt(i: int, start: threading.Barrier = start, answers: list[bytes] = answers,
                    round_: int = round_) -> None:
            own = GameStore(redis.Redis.from_url(redis_url), idle_ttl=3600)
            try:
                start.wait()
                change = Room(code, own).act({"type": "add", "n": amounts[i % 2]}, PLAYER,
                                 remember=keyed(code, f"race-{round_}"))
                assert change.answer is not None
                answers.append(change.answer)
            except Answered as exc:
                answers.append(exc.answer)
            finally:
                own.close()

        assert not in_threads(attempt, threads)
        assert len(set(answers)) == 1, answers
        assert store.client.get(k.idempotency(code, "t", f"race-{round_}")) == answers[0]
    state = store.load(code)
    events = store.events_since(code, -1)
    assert state is not None and replay(events) == state
    assert state["version"] == state["purse"] <= rounds  # each key applied at most once: never twice


def test_requests_are_counted_per_client_in_a_window(store: GameStore) -> None:
    who = secrets.token_hex(4)
    assert [store.hit("join", who, 60) for _ in range(3)] == [1, 2, 3]
    assert store.hit("join", "someone-else-" + who, 60) == 1


def test_an_unreachable_redis_raises_unavailable() -> None:
    from shipmate.embedded import free_port

    dead = GameStore(client_for(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=2))
    assert not dead.ping()
    with pytest.raises(Unavailable):
        dead.load("ABCDEF")


def test_a_refusal_is_never_decided_on_a_known_state_that_is_stale(
    store: GameStore, code: str
) -> None:
    known = store.load(code)
    Room(code, GameStore(store.client)).act({"type": "add", "n": 5}, PLAYER)  # another process
    # refused on the stale purse of 0, then decided again on the current one
    change = Room(code, store).act({"type": "add", "n": -3}, PLAYER, known=known)
    assert change.state["purse"] == 2 and change.state["version"] == 2
