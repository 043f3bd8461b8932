"""What syncing every change to disk costs one table: the embedded Redis with `appendfsync always`
against `everysec`, alternated in one run.

    .venv/bin/python bench/durability.py                  # 3 rounds of 400 actions each way
    .venv/bin/python bench/durability.py --rounds 5 --actions 1000 --dir /media/usb/bench

Each round and setting starts the embedded Redis (`shipmate.embedded.EmbeddedRedis`, as `shipmate
serve` runs it) in a new folder under --dir, one gunicorn worker as bench/compare.py serves it, and
one table of four captains over one kept-alive connection: each captain in turn rolls and ends
their turn, one action at a time, as fast as the answers come. Printed per round and setting: the
actions' latency (mean, p50, p99, from the request's send to its answer), the worker's and Redis's
CPU per action, and the bytes each action added to the append-only file; then, on the same Redis
alone, the round trip of one write of that size (p50 and p99 of --writes, one at a time), where the
sync's cost shows without the worker's; then the medians of the rounds. Rounds alternate which
setting goes first, so that whatever else the machine does falls on both.

The cost of a sync is the disk's: put --dir on the disk the table's data will be on (the default is
a temporary folder beside `shipmate serve`'s data folder). Nothing here runs in CI.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import redis
import requests
from compare import shipmate, worker_pids
from setup_cost import cpu_s

from shipmate.embedded import APPENDFSYNC, EmbeddedRedis
from shipmate.serve import data_home

CHARACTERS = ["netherlands", "england", "spain", "portugal"]


def filesystem(folder: Path) -> str:
    """Return the type of the filesystem `folder` is on (its longest mount point in /proc/mounts)."""
    best, kind = "", "?"
    for line in Path("/proc/mounts").read_text().splitlines():
        _, point, fstype, *_ = line.split()
        if str(folder.resolve()).startswith(point) and len(point) > len(best):
            best, kind = point, fstype
    return kind


def one_table(url: str, actions: int) -> list[float]:
    """Set up a table of four and play `actions` rolls and turn ends; return each one's seconds."""
    with requests.Session() as http:
        created = http.post(f"{url}/api/games", json={"game": "quest1607"}, timeout=10).json()
        game, host = f"{url}/api/games/{created['code']}", created["host_token"]
        tokens = {}
        for i, character in enumerate(CHARACTERS):
            joined = http.post(f"{game}/players", json={"name": f"Captain {i + 1}", "character": character},
                               timeout=10).json()
            tokens[joined["player_id"]] = joined["token"]
        http.post(f"{game}/actions", json={"type": "start"}, headers={"Authorization": f"Bearer {host}"},
                  timeout=10).raise_for_status()
        captain = tokens[http.get(game, timeout=10).json()["turn"]["player"]]
        took = []
        for number in range(actions):
            kind = "roll" if number % 2 == 0 else "end_turn"
            started = time.perf_counter()
            answer = http.post(f"{game}/actions", json={"type": kind},
                               headers={"Authorization": f"Bearer {captain}"}, timeout=10)
            took.append(time.perf_counter() - started)
            answer.raise_for_status()
            if kind == "end_turn":
                captain = tokens[answer.json()["state"]["turn"]["player"]]
        return took


def writes_alone(client: redis.Redis, size: int, count: int) -> list[float]:
    """Write `count` values of `size` bytes one at a time, as a table's changes come; return their seconds."""
    value = b"x" * size
    took = []
    for number in range(count):
        started = time.perf_counter()
        client.set(f"bench:{number}", value)
        took.append(time.perf_counter() - started)
    return took


def measure(appendfsync: str, folder: Path, actions: int, writes: int) -> dict[str, Any]:
    """Serve one table on a new embedded Redis with `appendfsync`; return its figures."""
    with EmbeddedRedis(folder / "redis", appendfsync=appendfsync) as embedded, \
            shipmate(embedded.url, 1, folder / "gunicorn.log") as (url, master):
        assert embedded.process is not None
        processes = [embedded.process.pid, *worker_pids(master.pid)]
        with redis.Redis.from_url(embedded.url) as client:
            before_syncs = client.info("persistence")
        cpu = [cpu_s(pid) for pid in processes]
        took = one_table(url, actions)
        cpu = [cpu_s(pid) - used for pid, used in zip(processes, cpu, strict=True)]
        with redis.Redis.from_url(embedded.url) as client:
            after_syncs = client.info("persistence")
            aof_bytes = after_syncs.get("aof_current_size", 0) - before_syncs.get("aof_current_size", 0)
            alone = sorted(1000 * t for t in writes_alone(client, aof_bytes // actions, writes))
    ms = sorted(1000 * t for t in took)
    return {
        "appendfsync": appendfsync,
        "mean": statistics.fmean(ms),
        "p50": ms[len(ms) // 2],
        "p99": ms[int(len(ms) * 0.99)],
        "redis_cpu": 1000 * cpu[0] / actions,
        "worker_cpu": 1000 * sum(cpu[1:]) / actions,
        "aof_bytes": aof_bytes / actions,
        "write_p50": alone[len(alone) // 2],
        "write_p99": alone[int(len(alone) * 0.99)],
    }


def main() -> int:
    """Measure both settings, round after round; print each round and the medians."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--actions", type=int, default=400, help="actions per round and setting (even)")
    parser.add_argument("--writes", type=int, default=400, help="writes to Redis alone per round and setting")
    parser.add_argument("--dir", type=Path, default=data_home().parent,
                        help="where the Redis folders are made (default: %(default)s)")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    print(f"one table, {args.actions} actions a round; Redis data on {filesystem(args.dir)} under {args.dir}")
    head = f"{'round':>5} {'appendfsync':>11} {'mean ms':>8} {'p50 ms':>7} {'p99 ms':>7} " \
           f"{'worker CPU ms/action':>20} {'Redis CPU ms/action':>19} {'AOF B/action':>12} " \
           f"{'write p50 ms':>12} {'write p99 ms':>12}"
    print(head)
    rows = []
    for number in range(args.rounds):
        order = APPENDFSYNC if number % 2 == 0 else APPENDFSYNC[::-1]
        for appendfsync in order:
            with tempfile.TemporaryDirectory(prefix="shipmate-durability-", dir=args.dir) as folder:
                row = measure(appendfsync, Path(folder), args.actions, args.writes)
            rows.append(row)
            print(f"{number + 1:>5} {appendfsync:>11} {row['mean']:>8.2f} {row['p50']:>7.2f} "
                  f"{row['p99']:>7.2f} {row['worker_cpu']:>20.3f} {row['redis_cpu']:>19.3f} "
                  f"{row['aof_bytes']:>12.0f} {row['write_p50']:>12.3f} {row['write_p99']:>12.3f}",
                  flush=True)
    print("medians:")
    for appendfsync in APPENDFSYNC:
        mine = [row for row in rows if row["appendfsync"] == appendfsync]
        print(f"{'':>5} {appendfsync:>11} "
              + " ".join(f"{statistics.median(r[key] for r in mine):>{width}.{digits}f}"
                         for key, width, digits in (("mean", 8, 2), ("p50", 7, 2), ("p99", 7, 2),
                                                    ("worker_cpu", 20, 3), ("redis_cpu", 19, 3),
                                                    ("aof_bytes", 12, 0), ("write_p50", 12, 3),
                                                    ("write_p99", 12, 3))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
