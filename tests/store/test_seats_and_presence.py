"""Seats and presence against a real Redis: a retired token commits nothing; a lapsed server is swept."""

from __future__ import annotations

import itertools
import secrets
import threading
from collections.abc import Iterator

import pytest
import redis

from shipmate.room import Room
from shipmate.rules import PUBLIC, Viewer, create
from shipmate.store import GameStore, Presence, Retired, Seats, hash_token
from shipmate.store import keys as k
from shipmate.store.presence import Seen
from tests.fixtures_server import wait_for
from tests.store import counter_game  # noqa: F401  (registers the test game)
from tests.store.channels import follow, next_message


@pytest.fixture
def store(redis_client: redis.Redis) -> GameStore:
    return GameStore(redis_client, idle_ttl=3600)


@pytest.fixture
def code(store: GameStore) -> Iterator[str]:
    """A game of the test counter with one player, p1, whose token is "p1-token"."""
    code = secrets.token_hex(4).upper()
    state, event = create("test-counter", code, {}, secrets.token_hex(32))
    store.create(code, state, event, hash_token("host-token"))
    Room(code, store).act({"type": "join"}, PUBLIC,
                          new_token=lambda _: (hash_token("p1-token"), {"player": "p1"}))
    yield code
    store.client.delete(*(name(code) for name in (k.version, k.state, k.events, k.tokens, k.presence, k.seen,
                                                  k.online, k.presence_clock)))


P1 = Viewer(player="p1")
ACTING = (hash_token("p1-token"), {"player": "p1"})


def test_a_token_retired_by_a_hand_over_commits_nothing_even_when_its_role_was_remembered(
        store: GameStore, code: str, redis_client: redis.Redis) -> None:
    assert Room(code, store).act({"type": "add", "n": 1}, P1, acting=ACTING).state["purse"] == 1
    seats = Seats(redis_client)
    seats.offer(code, "p1", "the-secret-of-the-link")
    assert seats.claim(code, "the-secret-of-the-link", hash_token("new-phone")) == "p1"
    assert store.role(code, hash_token("p1-token")) == {"moved": "p1"}
    assert store.role(code, hash_token("new-phone")) == {"player": "p1"}
    with pytest.raises(Retired):  # a socket opened before the hand-over still holds the old role
        Room(code, store).act({"type": "add", "n": 5}, P1, acting=ACTING)
    state = store.load(code)
    assert state is not None and state["purse"] == 1 and state["version"] == 2
    assert Room(code, store).act({"type": "add", "n": 2}, P1,
                                 acting=(hash_token("new-phone"), {"player": "p1"}))
    assert seats.claim(code, "the-secret-of-the-link", hash_token("third")) is None  # once only


def test_of_many_claims_of_one_link_at_once_exactly_one_gets_the_seat(
        store: GameStore, code: str, redis_client: redis.Redis) -> None:
    seats = Seats(redis_client)
    seats.offer(code, "p1", "one-link-many-phones")
    start = threading.Barrier(8)
    won: list[str] = []

    def phone(n: int) -> None:
        start.wait()
        if seats.claim(code, "one-link-many-phones", hash_token(f"phone-{n}")):
            won.append(f"phone-{n}")

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1
    roles = [store.role(code, hash_token(f"phone-{n}")) for n in range(8)]
    assert roles.count({"player": "p1"}) == 1 and roles.count(None) == 7


def test_presence_is_the_union_of_every_servers_word_and_announced_only_when_it_changes(
        code: str, redis_client: redis.Redis) -> None:
    one, two = Presence(redis_client, "one", 3600), Presence(redis_client, "two", 3600)
    listener = redis_client.pubsub(ignore_subscribe_messages=True)
    listener.subscribe(k.channel(code))
    assert one.update(code, ["p1"])[0] is True
    changed, seen = two.update(code, ["p2"])
    assert changed and seen.online == ("p1", "p2")
    assert two.update(code, ["p2"])[0] is False  # the same word again: nothing to announce
    changed, seen = one.update(code, [])
    assert changed and seen.online == ("p2",) and seen.away(["p1", "p2", "p3"]) == {"p1": 0, "p3": None}
    said = []
    while len(said) < 3:
        message = listener.get_message(timeout=10)
        if message is not None:
            said.append(Seen.announced(message["data"]).online)
    assert said == [("p1",), ("p1", "p2"), ("p2",)]
    listener.close()


def test_each_word_on_presence_is_later_than_the_one_before_even_within_a_millisecond(
        code: str, redis_client: redis.Redis) -> None:
    # A server keeps the word with the latest `now` (room/rooms.py): two words of one millisecond
    # that tied would lose the second one's news (a player who just came online, shown away).
    one, two = Presence(redis_client, "one", 3600), Presence(redis_client, "two", 3600)
    nows = [seen.now for _, seen in one.refresh({code: ["p1"]}).values()]
    for server, here in [(one, ["p1"]), (two, ["p2"])] * 20:
        nows.append(server.update(code, here)[1].now)
    assert all(a < b for a, b in itertools.pairwise(nows)), nows


def test_a_server_that_stopped_without_a_word_is_swept_after_its_lease(
        code: str, redis_client: redis.Redis) -> None:
    gone = Presence(redis_client, "gone", 3600, lease=0.05)
    assert gone.update(code, ["p1"])[1].online == ("p1",)
    survivor = Presence(redis_client, "survivor", 3600)
    wait_for(lambda: survivor.refresh({code: ["p2"]})[code][1].online == ("p2",),
             "the lapsed lease to be swept")
    assert "p1" in survivor.update(code, ["p2"])[1].seen


def test_a_word_on_presence_is_announced_only_when_another_server_follows_the_game(
        code: str, redis_client: redis.Redis) -> None:
    # The server that says it takes the word from the answer (room/rooms.py); as its commits are, it
    # is announced only for the others (store/keys.py `listener`).
    one = Presence(redis_client, "one", 3600)
    own = follow(redis_client, code, "one")
    assert one.update(code, ["p1"])[0] is True
    redis_client.publish(k.channel(code), '{"marker":true}')
    assert next_message(own) == b'{"marker":true}'  # nothing was announced before it
    other = follow(redis_client, code, "two")
    changed, seen = one.update(code, ["p1", "p2"])
    assert changed and seen.online == ("p1", "p2")
    assert Seen.announced(next_message(other)).online == ("p1", "p2")
    assert Seen.announced(next_message(own)).online == ("p1", "p2")
    own.close()
    other.close()
