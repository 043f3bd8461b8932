"""Games shard across a real 3-primary Redis Cluster: every game's keys share one hash tag.

The test starts three cluster-enabled redis-server nodes on free ports in a temporary folder, joins
them into a cluster, runs the store's operations for many games through redis-py's cluster client,
shows that the games landed on all three shards and that a change published on one shard reaches
a subscriber on another, and stops the nodes by pid.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator

import pytest
import redis

from shipmate import games  # noqa: F401  (registers Quest 1607 with the rules core)
from shipmate.codec import loads
from shipmate.embedded import dies_with_parent, free_port
from shipmate.room import Room
from shipmate.rules import HOST, PUBLIC, Viewer, create
from shipmate.store import GameStore, Presence, Seats, keys
from shipmate.store.client import CLUSTER_SCHEME, client_for, node_url
from tests.fixtures_server import wait_for

REDIS_SERVER = shutil.which("redis-server") or shutil.which("valkey-server")
REDIS_CLI = shutil.which("redis-cli") or shutil.which("valkey-cli")
GAMES = 30
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ234"

pytestmark = pytest.mark.skipif(not (REDIS_SERVER and REDIS_CLI), reason="needs redis-server and redis-cli")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[int]]:
    """Start a 3-primary cluster; yield the nodes' ports; stop each node by its pid."""
    folder = tmp_path_factory.mktemp("cluster")
    ports = [free_port() for _ in range(3)]
    bus_ports = [free_port() for _ in range(3)]  # port + 10000 may be out of range or taken
    nodes: list[subprocess.Popen[bytes]] = []
    try:
        for port, bus_port in zip(ports, bus_ports, strict=True):
            home = folder / str(port)
            home.mkdir()
            nodes.append(subprocess.Popen(
                [str(REDIS_SERVER), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(home),
                 "--cluster-enabled", "yes", "--cluster-port", str(bus_port),
                 "--cluster-config-file", "nodes.conf", "--save", "",
                 "--appendonly", "no"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=dies_with_parent()))
        for port in ports:
            node = redis.Redis(port=port)
            wait_for(lambda node=node: _answers(node), f"node {port}")
        subprocess.run([str(REDIS_CLI), "--cluster", "create", *(f"127.0.0.1:{p}" for p in ports),
                        "--cluster-replicas", "0", "--cluster-yes"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, timeout=60)
        wait_for(lambda: all(redis.Redis(port=p).cluster("info")["cluster_state"] == "ok" for p in ports),
                 "cluster_state ok")
        yield ports
    finally:
        for node in nodes:
            node.send_signal(signal.SIGTERM)
        for node in nodes:
            try:
                node.wait(timeout=10)
            except subprocess.TimeoutExpired:
                node.kill()
                node.wait()


def _answers(node: redis.Redis) -> bool:
    with contextlib.suppress(redis.RedisError):
        return bool(node.ping())
    return False


def test_games_shard_over_three_primaries_and_changes_reach_every_subscriber(cluster: list[int]) -> None:
    url = f"{CLUSTER_SCHEME}127.0.0.1:{cluster[0]}"
    client = client_for(url)
    store = GameStore(client)
    # A subscriber on a node other than the seed one: PUBLISH crosses the cluster bus.
    listener = redis.Redis.from_url(node_url(f"{CLUSTER_SCHEME}127.0.0.1:{cluster[2]}")).pubsub()

    codes = [f"CL{ALPHABET[i // 26]}{ALPHABET[i % 26]}QX" for i in range(GAMES)]
    listener.subscribe(*(keys.channel(code) for code in codes))
    for code in codes:
        state, event = create("quest1607", code, {}, "ab" * 32)
        store.create(code, state, event, f"host-{code}")
        for name, character in (("Ann", "netherlands"), ("Bo", "england")):
            token = f"{code}-{name}"
            Room(code, store).act({"type": "join", "name": name, "character": character}, PUBLIC,
                      new_token=lambda events, token=token: (token, {"player": events[0]["player_id"]}))
        Room(code, store).act({"type": "start"}, HOST)
        Room(code, store).act({"type": "roll"}, _current_player(store, code))

    for code in codes:
        state = store.load(code)
        assert state is not None and state["version"] == 4
        assert [e["version"] for e in store.events_since(code, -1)] == [0, 1, 2, 3, 4]
        assert store.role(code, f"host-{code}") == {"host": True}

    # Every game's keys sit on one slot, and the games spread over all three primaries.
    shards = {}
    for port in cluster:
        node = redis.Redis(port=port)
        owned = {key.decode().split("{")[1].split("}")[0] for key in node.scan_iter(match="game:*")}
        shards[port] = owned
        for code in owned:
            game_keys = (keys.state(code), keys.version(code), keys.events(code), keys.tokens(code))
            assert node.exists(*game_keys) == 4
    assert all(shards.values()), shards
    assert set().union(*shards.values()) == set(codes)

    # Each game's five changes were announced on its channel, wherever its shard is.
    seen: dict[str, int] = {}
    deadline = time.monotonic() + 10
    while sum(seen.values()) < GAMES * 5 and time.monotonic() < deadline:
        message = listener.get_message(timeout=1.0)
        if message and message["type"] == "message":
            code = keys.channel_code(message["channel"].decode())
            seen[code] = seen.get(code, 0) + 1
            assert loads(message["data"])["state"]["code"] == code
    assert seen == dict.fromkeys(codes, 5)
    listener.close()


def _current_player(store: GameStore, code: str) -> Viewer:
    state = store.load(code)
    assert state is not None
    return Viewer(player=state["turn"]["player"])


def test_presence_and_hand_overs_hold_on_a_cluster(cluster: list[int]) -> None:
    client = client_for(f"{CLUSTER_SCHEME}127.0.0.1:{cluster[0]}")
    listener = redis.Redis.from_url(node_url(f"{CLUSTER_SCHEME}127.0.0.1:{cluster[1]}")).pubsub(
        ignore_subscribe_messages=True)
    one, two = Presence(client, "one", 3600), Presence(client, "two", 3600)
    seats = Seats(client)
    codes = [f"PR{ALPHABET[i // 26]}{ALPHABET[i % 26]}QX" for i in range(GAMES)]
    listener.subscribe(*(keys.channel(code) for code in codes))
    for code in codes:
        client.hset(keys.tokens(code), mapping={"host": '{"host":true}', "old": '{"player":"p1"}'})
        assert one.update(code, ["p1"])[1].online == ("p1",)
        assert two.refresh({code: ["p2"]})[code][1].online == ("p1", "p2")
        seats.offer(code, "p1", f"secret-of-{code}")
        assert seats.claim(code, f"secret-of-{code}", "new") == "p1"
        assert client.hget(keys.tokens(code), "old") == b'{"moved":"p1"}'
    announced: dict[str, list[str]] = {}
    deadline = time.monotonic() + 10
    while sum(map(len, announced.values())) < GAMES * 3 and time.monotonic() < deadline:
        message = listener.get_message(timeout=1.0)
        if message and message["type"] == "message":
            code = keys.channel_code(message["channel"].decode())
            announced.setdefault(code, []).append(message["data"].split(b'"', 2)[1].decode())
    assert announced == {code: ["presence", "presence", "seat"] for code in codes}
    listener.close()
