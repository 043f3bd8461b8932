"""Patch sockets (`?updates=patch`) on a real server: every device ends with exactly the view a GET
returns, across a whole game, a resume and an undo; full-update sockets beside them are unchanged."""

from __future__ import annotations

import copy
import json
import statistics
import threading
from typing import Any

import jsonpatch
import websocket

from tests.api.client import Game
from tests.api.test_whole_game import play_to_the_winner, supply
from tests.fixtures_server import wait_for


class Device:
    """A socket read in a thread of its own, keeping its view as the contract says a client does."""

    def __init__(self, game: Game, token: str | None, patches: bool = True) -> None:
        self.game = game
        self.token = token
        self.patches = patches
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.kinds: dict[str, int] = {}
        self.patch_sizes: list[int] = []
        self.gaps = 0
        self.lock = threading.Lock()
        self.open()

    def open(self) -> None:
        query = [f"token={self.token}"] if self.token else []
        if self.patches:
            query.append("updates=patch")
        url = f"{self.game.base.replace('http://', 'ws://')}/ws/games/{self.game.code}?{'&'.join(query)}"
        self.ws = websocket.create_connection(url, timeout=30)
        if self.version >= 0:
            self.ws.send(json.dumps({"type": "resume", "since": self.version}))
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while raw := self.ws.recv():
                self._take(json.loads(raw), len(raw.encode()))
        except (websocket.WebSocketException, OSError):
            return

    def _take(self, message: dict[str, Any], size: int) -> None:
        kind = message["type"]
        with self.lock:
            self.kinds[kind] = self.kinds.get(kind, 0) + 1
            if kind in ("snapshot", "update") and message["version"] >= self.version:
                self.view, self.version = message["state"], message["version"]
            elif kind == "patch":
                if self.view is None or message["base"] != self.version:  # a gap: resume, as a client does
                    self.gaps += 1
                    self.ws.send(json.dumps({"type": "resume", "since": self.version}))
                    return
                self.view = jsonpatch.apply_patch(copy.deepcopy(self.view), message["patch"])
                self.version = message["version"]
                self.patch_sizes.append(size)

    def close(self) -> None:
        self.ws.close()
        self.thread.join(timeout=10)

    def at(self, version: int) -> bool:
        with self.lock:
            return self.version == version


def test_patch_sockets_end_with_the_view_a_get_returns(live_server: str) -> None:
    game = Game.create(live_server, quests_per_level=1)
    hero, rival = game.seat(2)
    devices = {"public": Device(game, None), "host": Device(game, game.host),
               hero: Device(game, game.players[hero]), rival: Device(game, game.players[rival]),
               "full": Device(game, game.players[rival], patches=False)}

    def between(state: dict[str, Any], active: str) -> None:
        if active != hero:  # the host corrects the rival, and takes it back: an undo mid-game
            supply(game, rival)
            game.ok(game.host, {"type": "undo"})
        if state["round"] == 3 and active == rival:  # a phone drops and comes back: it resumes
            devices[rival].close()
            game.ok(game.host, {"type": "adjust", "player": hero, "resources": {"wood": 1}, "reason": "x"})
            devices[rival].open()

    play_to_the_winner(game, hero, between)
    final = game.state()
    assert final["winner"] == hero
    for name, device in devices.items():
        wait_for(lambda device=device: device.at(final["version"]), f"{name}'s socket to reach the end")
        assert device.view == game.state(device.token), name
    patched = [size for device in devices.values() for size in device.patch_sizes]
    assert devices["full"].kinds.get("patch", 0) == 0  # without the parameter, updates stay full
    assert devices["public"].kinds["patch"] > final["version"] // 2  # most changes came as patches
    print(f"\n{len(patched)} patch frames, median {statistics.median(patched):.0f} B, "
          f"max {max(patched)} B; {sum(d.gaps for d in devices.values())} gaps resumed")
    for device in devices.values():
        device.close()


def test_the_acting_patch_socket_gets_the_change_once(live_server: str) -> None:
    """DESIGN: on a patch socket a successful action's `result` carries `version` and `events`, not the
    state, which came just before it in the patch the whole table gets; a full socket's and an HTTP
    answer keep the state."""
    game = Game.create(live_server)
    game.seat(2)
    active = game.state()["turn"]["player"]
    token = game.players[active]
    frames: dict[bool, list[dict[str, Any]]] = {}
    for patches, action in ((True, {"type": "roll"}), (False, {"type": "end_turn"})):
        query = f"token={token}" + ("&updates=patch" if patches else "")
        ws = websocket.create_connection(f"{live_server.replace('http://', 'ws://')}/ws/games/{game.code}?{query}",
                                         timeout=30)
        try:
            seen = [json.loads(ws.recv())]  # the snapshot
            supply(game, active)  # a change first: the socket's first one may come whole
            while seen[-1].get("version") != game.state()["version"] or seen[-1]["type"] == "presence":
                seen.append(json.loads(ws.recv()))
            ws.send(json.dumps({"type": "action", "id": 1, "action": action,
                                "idempotency_key": f"k{patches}"}))
            while not (seen[-1]["type"] == "result" and seen[-1]["id"] == 1):
                seen.append(json.loads(ws.recv()))
        finally:
            ws.close()
        frames[patches] = seen
    patched = frames[True]
    change = next((f for f in patched if f["type"] == "patch"), None)
    assert change is not None, [f["type"] for f in patched]
    result = patched[-1]
    assert patched.index(change) < len(patched) - 1 and result["status"] == 200
    assert set(result) == {"type", "id", "status", "version", "events"}, result
    assert result["version"] == change["version"] and result["events"] == change["events"]
    full = frames[False][-1]
    assert full["status"] == 200 and full["state"] == game.state(token)
    replay = game.act(token, {"type": "end_turn"}, key="kFalse")  # the same key over HTTP: the same answer
    assert replay.status_code == 200 and "state" in replay.json()
