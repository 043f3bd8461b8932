"""Measure idle sockets on one Shipmate process: memory per socket and latency beside them.

    .venv/bin/python bench/sockets.py                      # 0 1000 2000 4000 8000 12000 16000
    .venv/bin/python bench/sockets.py --steps 0 1000 2000 --hold 5

One gunicorn worker (deploy/gunicorn.conf.py, WEB_CONCURRENCY=1) and a real Redis are started as
in bench/compare.py. bench/idle_sockets.js opens public-view sockets that stay idle (they answer
protocol pings, as phones do), and at each step a probe table plays actions over its own sockets.
Printed: the worker's RSS, memory per idle socket, and the probe's latency; the answer is the most
idle sockets at which the probe's p99 stayed within 100 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from compare import BENCH_ENV, RESULTS, ROOT, add_peers_dir, peers_copy, redis_server, shipmate

LIMIT_MS = 100.0


def main() -> int:
    """Open idle sockets in steps and print what each step costs."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, nargs="+", default=[0, 1000, 2000, 4000, 8000, 12000, 16000])
    parser.add_argument("--hold", type=float, default=30.0,
                        help="seconds each step holds its sockets before the probe (keep-alives included)")
    add_peers_dir(parser)
    args = parser.parse_args()
    node_path = peers_copy(args.peers_dir) / "shipmate" / "node_modules"
    RESULTS.mkdir(parents=True, exist_ok=True)
    os.environ.update({"SHIPMATE_CONNECTIONS": str(max(args.steps) + 100), **BENCH_ENV})
    rows = []
    with tempfile.TemporaryDirectory(prefix="shipmate-sockets-redis-") as folder, \
            redis_server(Path(folder)) as (redis_url, _), \
            shipmate(redis_url, 1, RESULTS / "sockets-gunicorn.log") as (url, server):
        worker = subprocess.run(["pgrep", "-P", str(server.pid)], capture_output=True, text=True,
                                check=True).stdout.split()[0]
        done = subprocess.run(
            ["node", str(ROOT / "bench" / "idle_sockets.js"), url, worker, *map(str, args.steps)],
            env={**os.environ, "NODE_PATH": str(node_path), "HOLD_S": str(args.hold)},
            capture_output=True, text=True, check=False)
        rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
        if done.returncode != 0:
            print(done.stderr[-2000:], file=sys.stderr)
    if not rows:
        return 1
    base = rows[0]
    held = [r["idle_sockets"] for r in rows
            if r["probe_ms"]["p99"] <= LIMIT_MS and r["alive"] == r["idle_sockets"]]
    for row in rows:
        extra = row["idle_sockets"] - base["idle_sockets"]
        per = (row["worker_rss_mb"] - base["worker_rss_mb"]) * 1024 / extra if extra else None
        row["kb_per_idle_socket"] = round(per, 1) if per is not None else None
        print(json.dumps(row))
    print(f"most idle sockets with the probe's p99 within {LIMIT_MS:.0f} ms: {max(held) if held else 'none'}"
          f" (largest step tried: {rows[-1]['idle_sockets']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
