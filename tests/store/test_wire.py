"""The store's lean path to Redis (`store.wire`) is pinned to redis-py: the same bytes on the wire,
the same replies and the same errors as redis-py's own client, on a real Redis."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import redis
from redis.connection import PythonRespSerializer

from shipmate.store.wire import Commands, Waiting, pack

SCRIPT = "redis.call('SET', KEYS[1], ARGV[1]); return {1, redis.call('GET', KEYS[1]), tonumber(ARGV[2])}"


@dataclass
class Wire:
    """redis-py's client and the store's commands on the same Redis, and a key of the test's own."""

    client: redis.Redis
    commands: Commands
    key: str


@pytest.fixture
def wire(redis_url: str) -> Iterator[Wire]:
    client = redis.Redis.from_url(redis_url)
    made = Wire(client, Commands(client), f"wire:{secrets.token_hex(4)}")
    yield made
    client.delete(made.key)
    made.commands.close()
    client.close()


def test_commands_are_packed_as_redis_py_packs_them() -> None:
    args = ("EVALSHA", "a" * 40, 4, "game:{ABCDEF}:version", b"\x00\xff" * 3000, "", "é", 2592000, -1)
    assert pack(args) == b"".join(PythonRespSerializer(6000, redis.Connection().encoder.encode).pack(*args))


def test_replies_and_errors_are_redis_pys_own(wire: Wire) -> None:
    client, commands, key = wire.client, wire.commands, wire.key
    assert commands("GET", key) is client.get(key) is None
    sha = client.script_load(SCRIPT)
    value = b"\x00\xff{\"v\": 1}" * 100
    ours = commands("EVALSHA", sha, 1, key, value, 42)
    assert ours == client.evalsha(sha, 1, key, value, 42) == [1, value, 42]
    assert commands("GET", key) == client.get(key) == value
    with pytest.raises(redis.exceptions.NoScriptError):
        commands("EVALSHA", "0" * 40, 0)
    with pytest.raises(redis.exceptions.NoScriptError):
        client.evalsha("0" * 40, 0)
    with pytest.raises(redis.ResponseError) as ours_error:
        commands("EVALSHA", client.script_load("return redis.error_reply('M1 gone')"), 0)
    with pytest.raises(redis.ResponseError) as theirs_error:
        client.evalsha(client.script_load("return redis.error_reply('M1 gone')"), 0)
    assert str(ours_error.value) == str(theirs_error.value)
    assert commands("GET", key) == value  # the connection that read the error reply is clean


def test_an_unreachable_redis_raises_what_redis_pys_client_raises() -> None:
    dead = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2)
    commands = Commands(dead, retries=1)
    with pytest.raises(redis.ConnectionError):
        commands("GET", "anything")
    with pytest.raises(redis.ConnectionError):
        dead.get("anything")
    dead.close()


def test_a_group_goes_in_one_write_and_each_command_gets_its_own_reply_or_error(wire: Wire) -> None:
    commands, key = wire.commands, wire.key
    group = [Waiting(pack(args)) for args in (("INCRBY", key, 2), ("HGET", key, "x"), ("INCRBY", key, 3),
                                               ("GET", f"{key}:none"))]
    commands._send(group)
    assert [(w.answered, w.reply) for w in group] == [(True, 2), (True, None), (True, 5), (True, None)]
    assert isinstance(group[1].error, redis.ResponseError) and "WRONGTYPE" in str(group[1].error)
    assert all(w.done.is_set() for w in group)
    assert commands("GET", key) == b"5"  # the connection is clean after the error in the group


def test_a_group_cut_off_fails_every_command_without_a_reply_and_frees_them_all() -> None:
    dead = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2)
    commands = Commands(dead)
    group = [Waiting(pack(("GET", f"k{n}"))) for n in range(3)]
    commands._send(group)
    assert all(isinstance(w.error, redis.ConnectionError) and w.done.is_set() for w in group)
    dead.close()


def test_commands_from_many_threads_at_once_each_get_their_own_reply(wire: Wire) -> None:
    client, commands, key = wire.client, wire.commands, wire.key
    replies: dict[int, object] = {}

    def add(n: int) -> None:
        replies[n] = commands("RPUSH", key, n)

    threads = [threading.Thread(target=add, args=(n,)) for n in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(replies.values()) == list(range(1, 41))  # each push once, each reply its own
    assert sorted(int(v) for v in client.lrange(key, 0, -1)) == list(range(40))
