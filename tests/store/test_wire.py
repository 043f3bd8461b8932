"""The store's lean path to Redis (`store.wire`) is pinned to redis-py: the same bytes on the wire,
the same replies and the same errors as redis-py's own client, on a real Redis."""

from __future__ import annotations

import secrets

import pytest
import redis
from redis.connection import PythonRespSerializer

from shipmate.store.wire import Commands, pack

SCRIPT = "redis.call('SET', KEYS[1], ARGV[1]); return {1, redis.call('GET', KEYS[1]), tonumber(ARGV[2])}"


def test_commands_are_packed_as_redis_py_packs_them() -> None:
    args = ("EVALSHA", "a" * 40, 4, "game:{ABCDEF}:version", b"\x00\xff" * 3000, "", "é", 2592000, -1)
    assert pack(args) == b"".join(PythonRespSerializer(6000, redis.Connection().encoder.encode).pack(*args))


def test_replies_and_errors_are_redis_pys_own(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    commands = Commands(client)
    key = f"wire:{secrets.token_hex(4)}"
    try:
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
    finally:
        client.delete(key)
        commands.close()
        client.close()


def test_an_unreachable_redis_raises_what_redis_pys_client_raises() -> None:
    dead = redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2)
    commands = Commands(dead, retries=1)
    with pytest.raises(redis.ConnectionError):
        commands("GET", "anything")
    with pytest.raises(redis.ConnectionError):
        dead.get("anything")
    dead.close()
