"""Bytes per update frame: the table-sync workload's turns, with patch sockets and full sockets side by side.

    .venv/bin/python bench/frames.py               # 4 games × 60 turns
    .venv/bin/python bench/frames.py --games 2 --turns 200

The shared load client (bench/compare) reports only the mean and the largest of its frames; this
counts every frame. Each game has 4 players and the public screen, each with two sockets: one asks
for patches (`?updates=patch`, as the web app does) and one for whole views (the default). Each turn
is the workload's: a roll, one upgrade (table-sync's choice: sails, cannons or crew, whichever the
player can pay, on the lowest ship below the cap) and the end of the turn, sent over HTTP. After each
change the bench waits until all ten sockets hold it. It prints the median and the largest payload
of every update and patch frame, and the same per kind of viewer.

What it needs: a clone set up with `bash scripts/setup test` (websocket-client) and redis-server 7
on the PATH, as bench/compare. It starts its own Redis and gunicorn as bench/compare does.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

import orjson
import websocket

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import RESULTS, redis_server, shipmate

CHARACTERS = ("netherlands", "england", "spain", "portugal")
UPGRADES = (("sails", {"cotton": 3, "wood": 1}, None), ("cannons", {"coal": 2, "iron": 2}, None),
            ("crew", {"food": 1, "wood": 1}, "wood"))


def call(url: str, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    """Make one HTTP request; return its status and JSON body (errors too)."""
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


class Socket:
    """One socket of a viewer: it applies nothing, it only notes the versions and frame sizes."""

    def __init__(self, url: str, code: str, token: str | None, patches: bool) -> None:
        asks = (f"token={token}" if token else "", "updates=patch" if patches else "")
        query = "&".join(part for part in asks if part)
        self.ws = websocket.create_connection(f"{url.replace('http', 'ws', 1)}/ws/games/{code}?{query}",
                                              timeout=30)
        self.version = -1
        self.sizes: list[int] = []
        self._read()  # the snapshot

    def _read(self) -> None:
        data = self.ws.recv()
        message = orjson.loads(data)
        if message["type"] in ("update", "patch"):
            self.sizes.append(len(data.encode() if isinstance(data, str) else data))
        if "version" in message and message["type"] in ("snapshot", "update", "patch"):
            self.version = message["version"]

    def wait_for(self, version: int) -> None:
        while self.version < version:
            self._read()


def upgrade_for(player: dict[str, Any], caps: dict[str, int]) -> dict[str, Any]:
    """table-sync's upgrade: the first part the player can pay, on the lowest ship below its cap."""
    ships = sorted(player["ships"], key=lambda ship: ship["number"])
    for part, cost, pay_with in UPGRADES:
        if all(player["resources"].get(name, 0) >= n for name, n in cost.items()):
            ship = next((s["number"] for s in ships if s.get(part, 0) < caps.get(part, 99)), None)
            if ship is not None:
                paid = {"pay_with": pay_with} if pay_with else {}
                return {"type": "upgrade", "ship": ship, "part": part, **paid}
    return {"type": "upgrade", "ship": ships[0]["number"], "part": "sails"}


def play(url: str, turns: int) -> dict[str, list[Socket]]:
    """Play one game of `turns` turns; return its sockets by kind ('patch'/'full')."""
    status, game = call(url, "POST", "/api/games", {"game": "quest1607", "options": {}})
    assert status == 201, game
    code, host = game["code"], game["host_token"]
    tokens = []
    for index, character in enumerate(CHARACTERS):
        seat_body = {"name": f"P{index}", "character": character}
        status, seat = call(url, "POST", f"/api/games/{code}/players", seat_body)
        assert status == 201, seat
        tokens.append(seat["token"])
    status, started = call(url, "POST", f"/api/games/{code}/actions", {"type": "start"}, host)
    assert status == 200, started
    caps = call(url, "GET", f"/api/games/{code}/ruleset")[1].get("caps", {})
    viewers = [*tokens, None]
    sockets = {kind: [Socket(url, code, token, kind == "patch") for token in viewers]
               for kind in ("patch", "full")}
    token_of = {}
    for token in tokens:
        token_of[call(url, "GET", f"/api/games/{code}", token=token)[1]["you"]] = token
    for _ in range(turns):
        state = call(url, "GET", f"/api/games/{code}")[1]
        token = token_of[state["turn"]["player"]]
        for action in ({"type": "roll"}, None, {"type": "end_turn"}):
            if action is None:
                me = call(url, "GET", f"/api/games/{code}", token=token)[1]
                own = next(p for p in me["players"] if p["id"] == me["you"])
                action = upgrade_for(own, caps)
            status, answer = call(url, "POST", f"/api/games/{code}/actions", action, token)
            if status == 200:
                for sock in sockets["patch"] + sockets["full"]:
                    sock.wait_for(answer["version"])
    for sock in sockets["patch"] + sockets["full"]:
        sock.ws.close()
    return sockets


def figures(sizes: list[int]) -> str:
    return f"median {statistics.median(sizes):,.0f} B, max {max(sizes):,} B, {len(sizes):,} frames"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--turns", type=int, default=60)
    args = parser.parse_args()
    RESULTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="shipmate-frames-") as folder, \
            redis_server(Path(folder)) as (redis_url, _), \
            shipmate(redis_url, 1, RESULTS / "frames-gunicorn.log") as (url, _):
        games = [play(url, args.turns) for _ in range(args.games)]
    for kind in ("patch", "full"):
        every = [size for game in games for sock in game[kind] for size in sock.sizes]
        print(f"{kind:5} frames, every viewer: {figures(every)}")
        for index, name in enumerate(("player", "player", "player", "player", "screen")):
            if name == "player" and index:
                continue
            sizes = [size for game in games for size in game[kind][index].sizes]
            print(f"      {name} (one socket of {'4' if name == 'player' else '1'}): {figures(sizes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
