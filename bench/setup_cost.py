"""Measure what each kind of set-up request costs one Shipmate worker and its Redis, in CPU.

    .venv/bin/python bench/setup_cost.py              # 150 tables
    .venv/bin/python bench/setup_cost.py --tables 300
    .venv/bin/python bench/setup_cost.py --profile setup.txt   # and py-spy on the worker meanwhile
    .venv/bin/python bench/setup_cost.py --floor      # the least any request costs, for comparison

One gunicorn worker (deploy/gunicorn.conf.py) and a real Redis are started as in bench/compare.py.
Tables are set up as the load client of `bench/compare --pace` sets them up, one kind of request
at a time for all of them (create, ruleset, 4 joins, start, 5 sockets with their snapshots), one
request at a time; printed is the worker's and Redis's CPU (from /proc) per request of each kind.
With --profile, py-spy (`.venv/bin/pip install py-spy`) records the worker's stacks for the whole
set-up in its raw format, for bench/pyspy_split.py or a look by hand. With --floor, the same worker
serves a Flask app of one route that answers `{"ok": true}` instead, asked over one kept-alive
connection (as the set-up's requests come) and then each time on a new connection (as each socket's
handshake comes): what a request costs before any of Shipmate's work.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import requests
import websocket
from compare import BENCH_ENV, redis_server, shipmate, worker_pids
from flask import Flask

SEATS = 4

FLOOR = Flask(__name__)
"""The least a request can be (--floor): one route, a small JSON answer, served as Shipmate is."""


@FLOOR.get("/")
@FLOOR.get("/healthz")
def hello() -> dict[str, bool]:
    return {"ok": True}


def cpu_s(pid: int) -> float:
    """The CPU seconds (user and system) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    """Set up tables one kind of request at a time and print each kind's CPU per request."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--profile", type=Path, metavar="FILE", help="py-spy's raw stacks of the worker")
    parser.add_argument("--floor", action="store_true", help="a one-route Flask app's requests instead")
    args = parser.parse_args()
    os.environ.update(BENCH_ENV)
    with tempfile.TemporaryDirectory(prefix="shipmate-setup-") as folder, \
            redis_server(Path(folder)) as (redis_url, redis_process), \
            shipmate(redis_url, 1, Path(folder) / "gunicorn.log", 6 * args.tables + 100,
                     app="setup_cost:FLOOR" if args.floor else None) as (url, server):
        worker = worker_pids(server.pid)[0]
        profiler = contextlib.ExitStack()
        if args.profile:
            spy = subprocess.Popen([str(Path(sys.executable).with_name("py-spy")), "record", "--pid",
                                    str(worker), "--format", "raw", "--output", str(args.profile),
                                    "--nonblocking"])
            profiler.callback(spy.wait)
            profiler.callback(spy.send_signal, signal.SIGINT)
        http = requests.Session()
        costs: dict[str, tuple[float, float]] = {}

        def each(kind: str, request: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
            items = list(items)
            worker_before, redis_before = cpu_s(worker), cpu_s(redis_process.pid)
            answers = [request(item) for item in items]
            costs[kind] = ((cpu_s(worker) - worker_before) / len(items),
                           (cpu_s(redis_process.pid) - redis_before) / len(items))
            return answers

        if args.floor:
            requests_each = 12 * args.tables  # as many as the set-up's (7 a table, and 5 sockets)
            each("hello", lambda _: http.get(f"{url}/"), range(requests_each))
            each("hello, a new connection each", lambda _: requests.get(f"{url}/"), range(requests_each))
            profiler.close()
            report(costs, f"{requests_each} requests of a one-route Flask app, one at a time")
            return 0
        games = each("create", lambda _: http.post(f"{url}/api/games", json={
            "game": "quest1607", "options": {"quests_per_level": 1}}).json(), range(args.tables))
        rulesets = each("ruleset", lambda game: http.get(f"{url}/api/games/{game['code']}/ruleset").json(),
                        games)
        characters = [character["id"] for character in rulesets[0]["characters"]][:SEATS]
        tokens = each("join", lambda seat: http.post(
            f"{url}/api/games/{seat[0]['code']}/players",
            json={"name": f"p{seat[1]}", "character": characters[seat[1]]}).json()["token"],
            [(game, seat) for game in games for seat in range(SEATS)])
        each("start", lambda game: http.post(
            f"{url}/api/games/{game['code']}/actions", json={"type": "start"},
            headers={"Authorization": f"Bearer {game['host_token']}"}), games)
        sockets: list[websocket.WebSocket] = []

        def open_socket(seat: tuple[int, int]) -> None:
            table, seat_number = seat
            token = f"&token={tokens[table * SEATS + seat_number]}" if seat_number < SEATS else ""
            sock = websocket.create_connection(
                f"{url.replace('http', 'ws', 1)}/ws/games/{games[table]['code']}?updates=patch{token}")
            sock.recv()  # the snapshot
            sockets.append(sock)

        each("socket", open_socket,
             [(table, seat) for table in range(args.tables) for seat in range(SEATS + 1)])
        for sock in sockets:
            sock.close()
        profiler.close()
    report(costs, f"{args.tables} tables, one request at a time")
    return 0


def report(costs: dict[str, tuple[float, float]], what: str) -> None:
    """Print each kind's worker and Redis CPU per request."""
    print(f"CPU per request, {what}:")
    for kind, (worker_s, redis_s) in costs.items():
        print(f"  {kind:28s} worker {worker_s * 1000:5.2f} ms   redis {redis_s * 1000:5.2f} ms")


if __name__ == "__main__":
    raise SystemExit(main())
