"""Twenty clients hammer one game over HTTP, on two servers at once; the stored game stays whole."""

from __future__ import annotations

import dataclasses
import random
import threading
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis
import requests

from shipmate.store import GameStore
from tests.api.client import RESOURCES, Game
from tests.fixtures_server import TEST_LIMITS, StartServer
from tests.ledger import audit

PLAYERS = 6
CLIENTS_PER_PLAYER = 3  # a phone, a tablet and a flaky second tab per captain: 18 clients
HOST_CLIENTS = 2  # and the host's two devices: 20 clients
ROUNDS = 40  # actions per client


@dataclasses.dataclass
class Tally:
    """What the clients saw: every status, and each acknowledged change (version → event types)."""

    statuses: Counter[int] = dataclasses.field(default_factory=Counter)
    changes: list[tuple[int, list[str]]] = dataclasses.field(default_factory=list)
    reads: int = 0
    actions: int = 0
    retries: int = 0
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)

    def note(self, response: requests.Response, retry: bool = False) -> None:
        """Count one answer."""
        with self.lock:
            self.actions += 1
            self.retries += retry
            self.statuses[response.status_code] += 1


def player_action(state: dict[str, Any], pid: str, rng: random.Random) -> dict[str, Any]:
    """Choose what captain `pid` tries now: mostly sensible, sometimes refused."""
    turn, players = state["turn"], {p["id"]: p for p in state["players"]}
    have = players[pid]["resources"]
    richest = sorted(RESOURCES, key=lambda r: -have.get(r, 0))
    others = [p for p in players if p != pid]
    mine = [o for o in state["offers"] if o["to"] == pid]
    if turn["player"] != pid:
        if mine and rng.random() < 0.8:
            return {"type": rng.choice(["accept", "accept", "accept", "decline"]), "offer_id": mine[0]["id"]}
        if rng.random() < 0.7:
            return {"type": "offer", "to": turn["player"], "give": {richest[0]: 1},
                    "get": {rng.choice(RESOURCES): 1}}
        return {"type": "roll"}  # out of turn: T5
    if not turn["rolled"]:
        return {"type": "roll"}
    sent = [o for o in state["offers"] if o["from"] == pid]
    options: list[dict[str, Any]] = [
        {"type": "market", "give": richest[0], "get": richest[-1]},
        {"type": "bank", "give": {richest[0]: 3, richest[1]: 2}, "get": rng.choice(RESOURCES)},
        {"type": "upgrade", "ship": 1, "part": rng.choice(["sails", "cannons", "crew"])},
        {"type": "offer", "to": rng.choice(others), "give": {richest[0]: 2},
         "get": {rng.choice(RESOURCES): 1}},
        {"type": "end_turn"},
    ]
    if sent:
        options.append({"type": "withdraw", "offer_id": sent[0]["id"]})
    return rng.choice(options)


def host_action(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Choose a host correction: supplies for someone, a take-back, or an undo."""
    pid = rng.choice([p["id"] for p in state["players"]])
    if rng.random() < 0.1:
        return {"type": "undo"}
    sign = -1 if rng.random() < 0.2 else 1
    return {"type": "adjust", "player": pid, "resources": {rng.choice(RESOURCES): sign * rng.randint(1, 3)},
            "reason": "supplies"}


def send(game: Game, token: str, action: dict[str, Any], rng: random.Random, tally: Tally) -> None:
    """Send an action: plainly, or under an Idempotency-Key retried in series or in parallel."""
    mode = rng.random()
    if mode < 0.5:
        responses = [game.act(token, action)]
    else:
        key = str(uuid.uuid4())
        if mode < 0.8:
            responses = [game.act(token, action, key=key) for _ in range(2)]
        else:
            with ThreadPoolExecutor(max_workers=2) as pool:
                responses = list(pool.map(lambda _: game.act(token, action, key=key), range(2)))
            responses.append(game.act(token, action, key=key))
        assert all((r.status_code, r.json()) == (responses[0].status_code, responses[0].json())
                   for r in responses), "a retry under the same key got another answer"
    for i, response in enumerate(responses):
        tally.note(response, retry=i > 0)
    first = responses[0]
    if first.status_code == 200:
        body = first.json()
        with tally.lock:
            tally.changes.append((body["version"], [e["type"] for e in body["events"]]))


def client(game: Game, token: str, pid: str | None, seed: int, tally: Tally) -> None:
    """Play ROUNDS actions as one device: read the public state, choose, send."""
    rng = random.Random(seed)
    for _ in range(ROUNDS):
        state = game.state()
        with tally.lock:
            tally.reads += 1
        action = host_action(state, rng) if pid is None else player_action(state, pid, rng)
        if rng.random() < 0.25:  # as a phone does that saw this version: 409 once the game moved on
            action["expected_version"] = state["version"]
        send(game, token, action, rng, tally)


@pytest.mark.slow
def test_twenty_clients_on_one_game_lose_and_double_nothing(
    live_server: str, start_server: StartServer, redis_client: redis.Redis
) -> None:
    servers = [live_server, start_server(**TEST_LIMITS)]
    game = Game.create(live_server)
    pids = game.seat(PLAYERS)
    for pid in pids:  # supplies, so trades and upgrades happen from the first turn
        game.ok(game.host, {"type": "adjust", "player": pid, "resources": dict.fromkeys(RESOURCES, 6),
                            "reason": "start"})
    start = game.state()["version"]
    devices: list[tuple[str | None, str]] = [
        (pid, game.players[pid]) for pid in pids for _ in range(CLIENTS_PER_PLAYER)]
    devices += [(None, game.host)] * HOST_CLIENTS
    tally = Tally()
    threads = [
        threading.Thread(target=client, args=(
            dataclasses.replace(game, base=servers[i % 2], http=requests.Session()), token, pid, i, tally))
        for i, (pid, token) in enumerate(devices)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert set(tally.statuses) <= {200, 403, 409, 422}, tally.statuses
    store = GameStore(redis_client)
    state = store.load(game.code)
    assert state is not None
    events = store.events_since(game.code, -1)
    checked = audit(events, state)
    # every change in the stream was acknowledged to exactly one request, and said the same events
    acknowledged = sorted(tally.changes)
    assert [v for v, _ in acknowledged] == list(range(start + 1, state["version"] + 1))
    stream = {v: [e["type"] for e in events if e["version"] == v] for v, _ in acknowledged}
    assert all(stream[v] == types for v, types in acknowledged)
    assert checked["accepted_offers"] > 0 and tally.statuses[200] > 100, (checked, tally.statuses)
    print(f"\n{len(devices)} clients, {tally.reads} reads, {tally.actions} actions "
          f"({tally.retries} key retries), statuses {dict(tally.statuses)}, {checked}")
