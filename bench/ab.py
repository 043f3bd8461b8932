"""A/B at table pace: this tree and another revision of Shipmate, served at the same time.

    .venv/bin/python bench/ab.py                        # this tree against HEAD: 500 tables each, 2 rounds
    .venv/bin/python bench/ab.py --base 7db0d15 --rounds 3
    .venv/bin/python bench/ab.py --base HEAD~2 --games 300 --duration 40

The VM this project is measured on runs at different speeds from one minute to the next (a round of
`bench/compare --pace` has measured the same code at 1.22 and 1.44 ms per action an hour apart), so
a change worth a few per cent cannot be told from a run before it and a run after it. Here both
revisions run side by side, each with its own real Redis (as bench/compare.py starts them) and its
own copy of the peers' Shipmate load client at table pace: whatever the machine does meanwhile, it
does to both. Each round swaps which of the two is started first. Printed per round and revision:
the worker's and its Redis's CPU per action, their sum, p99, set-up time and peak memory; then the
median ratio of the sums (this tree ÷ base).

The two servers and two load clients share the machine's cores, so the absolute figures are higher
than in `bench/compare --pace` (which runs one server at a time): only the ratio is the result. The
base revision is checked out in a temporary git worktree and served with this tree's virtualenv,
so it must use the same pinned packages. Nothing here runs in CI.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from compare import PACE_THINK_MS, ROOT, add_peers_dir, peers_copy, redis_server, shipmate


@contextlib.contextmanager
def worktree(revision: str) -> Iterator[Path]:
    """Check `revision` out in a temporary git worktree; remove it afterwards."""
    with tempfile.TemporaryDirectory(prefix="shipmate-ab-") as folder:
        tree = Path(folder) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(tree), revision], cwd=ROOT,
                       check=True)
        try:
            yield tree
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)


def side_by_side(peers: Path, trees: list[Path], games: int, duration: int,
                 log_dir: Path) -> list[dict[str, Any]]:
    """Serve each tree with its own Redis, run a load client against each at once; return their results."""
    with contextlib.ExitStack() as stack:
        started = []
        for number, tree in enumerate(trees):
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="shipmate-ab-redis-")))
            redis_url, redis_process = stack.enter_context(redis_server(folder))
            url, server = stack.enter_context(shipmate(redis_url, 1, log_dir / f"gunicorn-{number}.log",
                                                       5 * games + 1000, root=tree))
            started.append((url, server, redis_process))
        clients = []
        for number, (url, server, redis_process) in enumerate(started):
            env = {**os.environ, "SHIPMATE_URL": url, "SERVER_PID": str(server.pid),
                   "SHIPMATE_REDIS_PID": str(redis_process.pid), "SHIPMATE_UPDATES": "patch",
                   "GAMES": str(games), "THINK_MS": str(PACE_THINK_MS), "DURATION": str(duration),
                   "WARMUP": "3", "SETUP_TIMEOUT_S": "120", "NODE_ENV": "production"}
            command = ["timeout", "--kill-after=5", str(duration + 240),  # bounded, as run.sh bounds it
                       "node", str(peers / "shipmate" / "client.js")]
            with (log_dir / f"client-{number}.log").open("wb") as err:
                clients.append(subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=err))
        outputs = [client.communicate()[0].decode() for client in clients]
    results = []
    for number, output in enumerate(outputs):
        lines = [line for line in output.splitlines() if line.startswith("{")]
        if not lines:
            raise RuntimeError(f"load client {number} printed no result; see {log_dir}/client-{number}.log")
        results.append(json.loads(lines[-1]))
    return results


def figures(result: dict[str, Any]) -> dict[str, float]:
    """Return one run's CPU per action (worker, Redis, both), p99, set-up seconds and peak memory."""
    detail, actions = result["detail"], result["actions"]
    worker, redis = result["server_cpu_s"] / actions * 1000, detail["redis_cpu_s"] / actions * 1000
    return {"worker": worker, "redis": redis, "total": worker + redis, "p99": result["latency_ms"]["p99"],
            "setup": detail["setup_s"], "rss": result["server_rss_mb_peak"] + detail["redis_rss_mb_peak"],
            "errors": result["errors"]}


def main() -> int:
    """Run the rounds and print each revision's figures and the median ratio."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="HEAD", help="the revision to compare with (default HEAD)")
    parser.add_argument("--games", type=int, default=500, help="tables per server (default 500)")
    parser.add_argument("--duration", type=int, default=60, help="seconds measured (default 60)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds, the start order swapped each time")
    add_peers_dir(parser)
    args = parser.parse_args()
    peers = peers_copy(args.peers_dir)
    log_dir = Path(tempfile.mkdtemp(prefix="shipmate-ab-logs-"))
    ratios = []
    with worktree(args.base) as base:
        names = {ROOT: "this tree", base: args.base}
        for round_number in range(args.rounds):
            trees = [ROOT, base] if round_number % 2 == 0 else [base, ROOT]
            results = side_by_side(peers, trees, args.games, args.duration, log_dir)
            shown = dict(zip(trees, map(figures, results), strict=True))
            for tree in trees:
                f = shown[tree]
                print(f"round {round_number + 1}  {names[tree]:>12}: worker {f['worker']:.3f} + Redis "
                      f"{f['redis']:.3f} = {f['total']:.3f} ms/action, p99 {f['p99']:.1f} ms, set-up "
                      f"{f['setup']:.1f} s, {f['rss']:.0f} MB, {f['errors']} errors", flush=True)
            ratios.append(shown[ROOT]["total"] / shown[base]["total"])
    print(f"CPU per action, this tree ÷ {args.base}: median {statistics.median(ratios):.3f} "
          f"(rounds: {', '.join(f'{r:.3f}' for r in ratios)}); logs in {log_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
