"""Run the table-sync workload on boardgame.io, Colyseus and Shipmate in one go and print the ratios.

    .venv/bin/python bench/compare.py                      # 10 and 50 games, 20 s each
    .venv/bin/python bench/compare.py --games 50 --duration 10 --workers 1
    .venv/bin/python bench/compare.py --repeat 3          # every run three times, alternated; medians
    .venv/bin/python bench/compare.py --pace              # table pace: 1,000 tables, players think ~2 s
    .venv/bin/python bench/compare.py --pace --repeat 1 --profile 20   # one round, py-spy on the worker
    .venv/bin/python bench/compare.py --pace --appendfsync always everysec  # what durability costs

What it needs (none of it is in this repository or installed by scripts/setup):
  - the peers folder: the table-sync benchmark of boardgame.io and Colyseus and its load generator,
    given by --peers-dir DIR or the environment's SHIPMATE_PEERS_DIR; it is copied once to
    ~/.cache/shipmate-bench, where `npm ci` runs once (about 10 s), and `run.sh` runs there;
  - Node.js 20 and npm, with the npm registry reachable for that first `npm ci`;
  - redis-server 7 on the PATH (or its path in REDIS_SERVER), run with deploy/redis.conf's
    persistence (--appendfsync everysec for the figures of before issue #33);
  - the test tools (`bash scripts/setup test`) for bench/frames.py, which ends the run: it counts
    every update frame of two more games (median and largest, patch and full), which the shared
    load client does not.
It takes about two minutes per number of games (3 s warm-up and 20 s of load for each of the two
peers and each of Shipmate's two runs), so about 4 minutes per round of the default, and wants a
quiet machine.

For each number of games the two peers run first, then Shipmate twice (`--updates`): its sockets
take whole views in one run, the shared load client's default, and patches in the other, as the
web app asks. Both are in its production set-up: a real
`redis-server` (AOF, fsync every second, as deploy/redis.conf) and gunicorn with
deploy/gunicorn.conf.py, both started here on free loopback ports and stopped by pid. The load
client measures the gunicorn tree (master and workers) and, apart, the Redis process; the table
adds the two ("with Redis"). Every JSON line goes to bench/results/, the table to standard output.
Nothing here runs in CI.

Table pace (`--pace`): the shared benchmark's THINK_MS mode. Each player thinks a while before each
action (exponential, mean `--think-ms`, 2,000 ms, from the load client's fixed seed, so every server
gets the same think times), so the offered load is set by the tables, as in a games café, not by
how fast the server answers: 1,000 tables (5,000 sockets) offer ~500 actions/s. Each round runs
boardgame.io, Colyseus and Shipmate (patch sockets, as the web app asks; `--updates` for more)
one after the other, the order rotated from round to round, `--repeat` rounds (3 by default); the
table gives the medians per server of CPU per action (the server's process tree plus, for Shipmate,
its Redis), p99, peak memory (tree plus Redis), the time until every socket held its first state
(the load client's `setup_s`), actions/s and errors, and an estimate of tables per core at a p99
under 100 ms (the table's notes say how it is derived). The window is 60 s by default, so that
Shipmate's periodic work (a ping message every 20 s, a keep-alive probe every 20 s, presence every
20 s) falls into it in proportion. Shipmate's gunicorn gets `--connections` (default: 5 per table
plus 1,000) as worker_connections. `--profile S` adds one Shipmate run after the last round whose
gunicorn worker py-spy records for S seconds of the window (py-spy must be installed:
`.venv/bin/pip install py-spy`); its raw stacks go beside the results, bench/pyspy_split.py sums
them by the work they were doing, and its figures (which carry py-spy's cost) stay out of the
medians.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import redis

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "shipmate-bench"
GUNICORN = Path(sys.executable).with_name("gunicorn")

# The bench opens 5 sockets per game from one address and creates games at a rate no phone would:
# the per-address limits are for the public internet, not for a load generator on loopback.
BENCH_ENV = {
    "RATE_LIMIT_GAMES": "1000000",
    "RATE_LIMIT_JOINS": "1000000",
    "RATE_LIMIT_LOOKUPS": "1000000",
    "WS_MAX_PER_ADDRESS": "1000000",
    "WS_MAX_PER_GAME": "64",
}

# Table pace (--pace): the peers folder's THINK_MS mode at its README's size.
PACE_GAMES = 1000
PACE_THINK_MS = 2000
PACE_DURATION = 60
PACE_REPEAT = 3
P99_BUDGET_MS = 100.0
PY_SPY = Path(sys.executable).with_name("py-spy")


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def add_peers_dir(parser: argparse.ArgumentParser) -> None:
    """Add --peers-dir, the peers folder, which defaults to the environment's SHIPMATE_PEERS_DIR."""
    parser.add_argument("--peers-dir", type=Path, default=os.environ.get("SHIPMATE_PEERS_DIR"),
                        help="the peers folder (default: $SHIPMATE_PEERS_DIR); runs need one")


def peers_copy(source: Path | None) -> Path:
    """Return a writable copy of the peers folder with its node_modules installed (made once)."""
    if source is None:
        sys.exit("The peers folder is needed: --peers-dir DIR or SHIPMATE_PEERS_DIR=DIR.")
    stamp = max(int(p.stat().st_mtime) for p in source.rglob("*") if "node_modules" not in p.parts)
    target = CACHE / f"peers-{stamp}"
    if not (target / ".installed").exists():
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("node_modules", "results"))
        for path in target.rglob("*"):
            path.chmod(path.stat().st_mode | 0o200)
        for peer in ("boardgameio", "colyseus", "shipmate"):
            subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                           cwd=target / peer, check=True, stdout=subprocess.DEVNULL)
        (target / ".installed").touch()
    return target


def stop(process: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    """Stop a process this script started, by its pid: SIGTERM, then SIGKILL."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def stop_on_sigterm() -> None:
    """SIGTERM and SIGHUP end the run as Ctrl-C does, so every `finally` stops what it started."""
    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGHUP, interrupt)


def wait_until(check: Any, what: str, timeout: float = 30.0) -> None:
    """Poll `check()` until it is true; raise after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not come up")
        time.sleep(0.1)


@contextlib.contextmanager
def redis_server(folder: Path, appendfsync: str = "always") -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Run a real redis-server with deploy/redis.conf's persistence on a free loopback port.

    `appendfsync` is when it syncs its append-only file: "always" (before each answer, as
    deploy/redis.conf and the embedded Redis) or "everysec".
    """
    port = free_port()
    command = [os.environ.get("REDIS_SERVER", "redis-server"), "--port", str(port), "--bind", "127.0.0.1",
               "--dir", str(folder), "--appendonly", "yes", "--appendfsync", appendfsync, "--save", "",
               "--client-output-buffer-limit", "pubsub 64mb 16mb 60"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url)

        def answers() -> bool:
            with contextlib.suppress(redis.RedisError):
                return bool(client.ping())
            return False

        wait_until(answers, "redis-server")
        yield url, process
    finally:
        stop(process)


@contextlib.contextmanager
def shipmate(redis_url: str, workers: int | None, log: Path, connections: int | None = None,
             root: Path = ROOT, app: str | None = None) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Run gunicorn with deploy/gunicorn.conf.py against `redis_url` on a free loopback port.

    `connections` is each worker's worker_connections (SHIPMATE_CONNECTIONS): one per open socket.
    `root` is the tree whose code is served (bench/ab.py serves another revision beside this one).
    `app` is another WSGI app of bench/ to serve the same way (bench/setup_cost.py --floor).
    """
    port = free_port()
    paths = [root / "backend", *([Path(__file__).parent] if app else [])]
    env = {**os.environ, **BENCH_ENV, "REDIS_URL": redis_url,
           "PYTHONPATH": os.pathsep.join(str(path) for path in paths)}
    if workers:
        env["WEB_CONCURRENCY"] = str(workers)
    if connections:
        env["SHIPMATE_CONNECTIONS"] = str(connections)
    command = [str(GUNICORN), "-c", str(root / "deploy" / "gunicorn.conf.py"),
               "--bind", f"127.0.0.1:{port}", *([app] if app else [])]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, cwd=root, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:

        def healthy() -> bool:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {log.read_text()[-2000:]}")
            with contextlib.suppress(OSError), urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
                return bool(answer.status == 200)
            return False

        wait_until(healthy, "gunicorn")
        yield url, process
    finally:
        stop(process)


def run_sh(peers: Path, env: dict[str, str], log: Path) -> list[dict[str, Any]]:
    """Run peers/run.sh with `env` and return the JSON lines it printed."""
    with log.open("ab") as err:
        done = subprocess.run(["bash", str(peers / "run.sh")], env={**os.environ, **env, "SKIP_INSTALL": "1"},
                              stdout=subprocess.PIPE, stderr=err, check=False)
    lines = [json.loads(line) for line in done.stdout.decode().splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"run.sh printed no result (exit {done.returncode}); see {log}")
    return lines


def redis_bytes_per_game(url: str) -> dict[str, Any]:
    """Return what the bench's games take in Redis: bytes per game and per version (MEMORY USAGE)."""
    client = redis.Redis.from_url(url)
    games: dict[str, int] = {}
    for key in client.scan_iter(match="game:*", count=1000):
        code = key.decode().split("{", 1)[1].split("}", 1)[0]
        games[code] = games.get(code, 0) + int(client.memory_usage(key, samples=0) or 0)
    versions = [int(client.get(f"game:{{{code}}}:version") or 0) for code in games]
    total = sum(games.values())
    return {
        "games": len(games),
        "bytes_per_game": round(total / len(games)) if games else None,
        "versions_per_game": round(sum(versions) / len(versions)) if versions else None,
        "bytes_per_version": round(total / sum(versions)) if sum(versions) else None,
        "used_memory_mb": round(int(client.info("memory")["used_memory"]) / 2**20, 1),
    }


def run_shipmate(peers: Path, games: int, common: dict[str, str], workers: int | None,
                 log_dir: Path, updates: str, connections: int | None = None,
                 profile: float = 0.0, appendfsync: str = "always") -> dict[str, Any]:
    """Start Redis and gunicorn, run the shipmate target once, measure Redis, stop both.

    With `profile` seconds, py-spy records the gunicorn worker for that long in the window.
    """
    with tempfile.TemporaryDirectory(prefix="shipmate-bench-redis-") as folder, \
            redis_server(Path(folder), appendfsync) as (redis_url, redis_process), \
            shipmate(redis_url, workers, log_dir / f"gunicorn-{games}.log", connections) as (url, server):
        env = {**common, "PEERS": "shipmate", "SHIPMATE_URL": url, "SHIPMATE_PID": str(server.pid),
               "SHIPMATE_REDIS_PID": str(redis_process.pid), "SHIPMATE_UPDATES": updates}
        recorder = None
        if profile:
            out = log_dir / f"py-spy-{games}-{updates}-{time.strftime('%H%M%S')}.txt"
            recorder = Recorder(server.pid, 5 * games, float(common["WARMUP"]) + 1,
                                min(profile, float(common["DURATION"]) - 2), out)
            recorder.start()
        (result,) = run_sh(peers, env, log_dir / "run.log")
        detail = result.setdefault("detail", {})
        detail["redis_store"] = redis_bytes_per_game(redis_url)
        detail["appendfsync"] = appendfsync
        if recorder is not None:
            recorder.join()
            detail["py_spy"] = recorder.report
        return result


def worker_pids(master: int) -> list[int]:
    """Return the pids of the gunicorn master's children (its workers)."""
    try:
        return [int(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split()]
    except OSError:
        return []


def open_sockets(pid: int) -> int:
    """Return how many sockets process `pid` holds open."""
    count = 0
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                count += os.readlink(fd).startswith("socket:")
    return count


class Recorder(threading.Thread):
    """py-spy on the gunicorn worker: wait for the load client's sockets, then the warm-up, then record.

    The sockets are counted in /proc (the load client's log is not ours to read while it runs);
    `report` says what was recorded, or why not.
    """

    def __init__(self, master: int, sockets: int, after: float, seconds: float, out: Path) -> None:
        super().__init__(name="py-spy", daemon=True)
        self.master, self.sockets, self.after, self.seconds, self.out = master, sockets, after, seconds, out
        self.report: dict[str, Any] = {}

    def run(self) -> None:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            workers = worker_pids(self.master)
            if workers and sum(open_sockets(pid) for pid in workers) >= self.sockets:
                break
            time.sleep(0.5)
        else:
            self.report = {"error": f"the worker never held {self.sockets} sockets"}
            return
        time.sleep(self.after)
        command = [str(PY_SPY), "record", "--format", "raw", "--rate", "100", "--duration",
                   str(max(1, round(self.seconds))), "--output", str(self.out), "--pid", str(workers[0])]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        self.report = {"pid": workers[0], "seconds": round(self.seconds), "rate": 100, "file": str(self.out),
                       "status": done.returncode, "stderr": done.stderr.strip()[-300:]}


def figures(result: dict[str, Any]) -> dict[str, Any]:
    """Return the comparable figures of one JSON line (Redis added to the server's CPU and memory)."""
    detail = result.get("detail", {})
    redis_cpu = detail.get("redis_cpu_s") if not detail.get("redis_included_in_server_figures") else 0
    redis_rss = detail.get("redis_rss_mb_peak") if not detail.get("redis_included_in_server_figures") else 0
    other = detail.get("other_cpu_s")
    if other is not None and redis_cpu:  # a Redis outside the server's tree is "other" to the client
        other = round(other - redis_cpu, 3)
    return {
        "peer": peer_of(result), "games": result["games"], "actions_per_s": result["actions_per_s"],
        "p50": result["latency_ms"]["p50"], "p99": result["latency_ms"]["p99"],
        "cpu_s": (result["server_cpu_s"] or 0) + (redis_cpu or 0),
        "rss_mb": (result["server_rss_mb_peak"] or 0) + (redis_rss or 0),
        "errors": result["errors"], "client_cpu_s": detail.get("client_cpu_s"),
        "other_cpu_s": other, "calibration_ms": detail.get("cpu_calibration_ms"),
        "final_ok": detail.get("games_final_state_ok"),
        "client_ms_per_action": client_ms_per_action(result),
        "update_bytes": update_bytes(detail),
        "think_ms": result.get("think_ms") or 0,
        "duration_s": result.get("duration_s"),
        "actions": result.get("actions"),
        "max": result["latency_ms"].get("max"),
        "setup_s": detail.get("setup_s"),
        "final_ok_all": detail.get("games_final_state_ok") == result["games"],
        "profiled": "py_spy" in detail,
    }


def cpu_ms_per_action(row: dict[str, Any]) -> float | None:
    """Return the CPU of the server's tree and its Redis per action in the window, in ms."""
    return 1000 * row["cpu_s"] / row["actions"] if row["actions"] else None


def cores(row: dict[str, Any]) -> float | None:
    """Return the cores the server and its Redis kept busy on average in the window."""
    return row["cpu_s"] / row["duration_s"] if row["duration_s"] else None


def tables_per_core(row: dict[str, Any]) -> float | None:
    """Return the tables one core carries at this cost per table, when the p99 stayed under budget.

    A table costs the server (and its Redis) `cores / games` of a core at table pace, idle upkeep
    included; `games / cores` is then what one core's CPU pays for. Given only when the measured p99
    was under P99_BUDGET_MS and nothing failed: a run that missed the budget says nothing of its size.
    """
    used = row["cores"]
    if not used or row["p99"] is None or row["p99"] >= P99_BUDGET_MS or row["errors"]:
        return None
    return float(row["games"]) / used


def client_ms_per_action(result: dict[str, Any]) -> float | None:
    """Return the load client's CPU per action in the window, in ms: what each change costs the devices."""
    spent, actions = result.get("detail", {}).get("client_cpu_s"), result.get("actions")
    return 1000 * spent / actions if spent is not None and actions else None


def peer_of(result: dict[str, Any]) -> str:
    """Return the peer's name; Shipmate's says how its sockets took each change: "shipmate full"/"… patch"."""
    if result["peer"] != "shipmate":
        return str(result["peer"])
    detail = result.get("detail", {})
    name = "shipmate patch" if "updates=patch" in str(detail.get("state_updates", "")) else "shipmate full"
    return name + (" everysec" if detail.get("appendfsync") == "everysec" else "")


def update_bytes(detail: dict[str, Any]) -> dict[str, Any] | None:
    """Return the mean and largest update frame of a Shipmate run, patches counted.

    The shared client's `update_frame_bytes` sums every update and patch frame but divides by the
    number of full updates only, so in patch mode its mean is far too large: divide by both.
    """
    sizes, frames = detail.get("update_frame_bytes"), detail.get("frames_received") or {}
    count = (frames.get("update") or 0) + (frames.get("patch") or 0)
    if not sizes or sizes.get("mean") is None or not count:
        return None
    return {"mean": sizes["mean"] * (frames.get("update") or 0) / count, "max": sizes["max"], "frames": count}


def medians(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return one row per peer and number of games: the median of each figure over its runs."""
    groups: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["peer"], row["games"]), []).append(row)
    return [{"peer": peer, "games": games, "runs": len(runs),
             **{name: statistics.median(r[name] for r in runs)
                for name in ("actions_per_s", "p50", "p99", "cpu_s", "rss_mb")},
             "client_ms_per_action": statistics.median(r["client_ms_per_action"] or 0 for r in runs),
             "errors": sum(r["errors"] for r in runs)}
            for (peer, games), runs in sorted(groups.items(), key=lambda item: (item[0][1], item[0][0]))]


def rounds_ahead(rows: list[dict[str, Any]], mine: str, peer: str, games: int) -> str:
    """Say in how many rounds `mine` was ahead of `peer`, the k-th run of each taken together."""
    ours = [r for r in rows if r["peer"] == mine and r["games"] == games]
    theirs = [r for r in rows if r["peer"] == peer and r["games"] == games]
    pairs = list(zip(ours, theirs, strict=False))
    faster = sum(o["actions_per_s"] > t["actions_per_s"] for o, t in pairs)
    steadier = sum(o["p99"] < t["p99"] for o, t in pairs)
    return (f"round by round: more actions/s in {faster} of {len(pairs)}, "
            f"a lower p99 in {steadier} of {len(pairs)}")


def table(results: list[dict[str, Any]]) -> str:
    """Return every run side by side, then (runs repeated) the medians, and Shipmate's ratios to each peer."""
    rows = [figures(r) for r in results]
    head = ("peer", "games", "actions/s", "p50 ms", "p99 ms", "CPU s (+redis)", "RSS MB (+redis)", "errors",
            "final ok", "client CPU s", "other CPU s", "calib ms")
    lines = [" | ".join(head), " | ".join("---" for _ in head)]
    for row in rows:
        lines.append(" | ".join(str(x) for x in (
            row["peer"], row["games"], f"{row['actions_per_s']:.0f}", row["p50"], row["p99"],
            f"{row['cpu_s']:.2f}", f"{row['rss_mb']:.0f}", row["errors"], row["final_ok"],
            row["client_cpu_s"], row["other_cpu_s"], row["calibration_ms"])))
    summary = medians(rows)
    if any(row["runs"] > 1 for row in summary):
        lines += ["", "Medians over the runs:", "",
                  "peer | games | runs | actions/s | p50 ms | p99 ms | CPU s (+redis) | RSS MB (+redis) "
                  "| errors",
                  "--- | --- | --- | --- | --- | --- | --- | --- | ---"]
        for row in summary:
            lines.append(" | ".join(str(x) for x in (
                row["peer"], row["games"], row["runs"], f"{row['actions_per_s']:.0f}", round(row["p50"], 3),
                round(row["p99"], 3),
                f"{row['cpu_s']:.2f}", f"{row['rss_mb']:.0f}", row["errors"])))
    lines.append("")
    lines.append("Shipmate ÷ peer (actions/s: >1 is better; p50, p99, CPU per action, RSS: <1 is better)")
    for mine in (r for r in summary if r["peer"].startswith("shipmate")):  # by games, then full, patch
        games = mine["games"]
        for peer in (r for r in summary if r["games"] == games and not r["peer"].startswith("shipmate")):
            per_action = (mine["cpu_s"] / mine["actions_per_s"]) / (peer["cpu_s"] / peer["actions_per_s"])
            speed = mine["actions_per_s"] / peer["actions_per_s"]
            lines.append(
                f"  {games} games, {mine['peer']} vs {peer['peer']}: actions/s ×{speed:.2f}, "
                f"p50 ×{mine['p50'] / peer['p50']:.2f}, p99 ×{mine['p99'] / peer['p99']:.2f}, "
                f"CPU per action ×{per_action:.2f}, RSS ×{mine['rss_mb'] / peer['rss_mb']:.2f}")
            lines.append(f"    the load client's CPU per action: {mine['client_ms_per_action']:.3f} ms "
                         f"against {peer['client_ms_per_action']:.3f} ms")
            if mine["runs"] > 1:
                lines.append("    " + rounds_ahead(rows, mine["peer"], peer["peer"], games))
    lines += ["", "Bytes per update frame (the peers' clients do not count theirs; their figures are the "
              "peers folder's README):",
              "  boardgameio: the whole state as JSON, about 1.2 kB a frame",
              "  colyseus: a binary schema delta, about 20 B a frame (median)"]
    for row in rows:
        if row["update_bytes"]:
            sizes = row["update_bytes"]
            lines.append(f"  {row['peer']} at {row['games']} games (load client): "
                         f"mean {sizes['mean']:.0f} B, max {sizes['max']:,} B, {sizes['frames']:,} frames")
    stores = {r["games"]: r["detail"]["redis_store"] for r in results if "redis_store" in r.get("detail", {})}
    for store in stores.values():
        lines.append(f"  Redis after Shipmate's (last) run: {store}")
    return "\n".join(lines)


def _median(values: list[Any]) -> Any:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def _fmt(value: Any, digits: int = 2) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


PACE_HEAD = ("server", "games", "think ms", "runs", "actions/s", "CPU ms/action (+redis)",
             "cores busy", "p50 ms", "p99 ms", "max ms", "peak RSS MB (+redis)", "setup s",
             "errors", "final ok", "tables/core by CPU", f"tables/core at p99 < {P99_BUDGET_MS:.0f} ms",
             "other CPU s", "calib ms")
PACE_MEDIANS = ("actions_per_s", "cpu_ms_per_action", "cores", "p50", "p99", "max", "rss_mb", "setup_s",
                "other_cpu_s", "calibration_ms")
PACE_NOTES = f"""
CPU ms/action: the CPU of the server's whole process tree (Shipmate: gunicorn's master and worker)
plus, for Shipmate, its own redis-server, in the window, divided by the actions completed in it. At
table pace it includes the upkeep of the idle sockets (pings, keep-alives, timers), which a
full-speed run hides. cores busy: the same CPU-seconds divided by the window's seconds. peak RSS:
the largest sum of the tree's RSS over the whole run, plus Redis's. setup s: from the load client's
start until every socket held its first state (games created, players joined, 5 sockets per table
opened; 10 tables at a time). other CPU s: what the rest of the machine used in the window
(the load client's figure, less Shipmate's Redis); calib ms: the load client's fixed CPU loop
before the run (about 250 ms on a quiet 2-core VM of the peers' README). A run beside other work
measures that work as much as the server: compare runs whose other CPU s is near 0.
tables/core by CPU: games ÷ cores busy, how many tables one core's worth of CPU pays for at the
cost per table measured at this size, idle upkeep included. tables/core at p99 < {P99_BUDGET_MS:.0f} ms: the
same, given only when the run's p99 was under {P99_BUDGET_MS:.0f} ms and it had no errors (a run that missed
the budget says nothing about what a core carries within it). Both are an upper bound, not a measurement
at that many tables: latency grows as a core fills, one Shipmate worker (one process, the GIL) never
uses more than one core, and more workers cost more per action (docs/PERFORMANCE.md). A larger
--games confirms a figure when its p99 stays under the budget there.""".strip()


def pace_table(results: list[dict[str, Any]]) -> str:
    """Return the table-pace table: every run, then one row of medians per server and size."""
    rows = [figures(r) for r in results]
    for row in rows:
        row["cpu_ms_per_action"] = cpu_ms_per_action(row)
        row["cores"] = cores(row)
        row["tables_by_cpu"] = row["games"] / row["cores"] if row["cores"] else None
        row["tables_per_core"] = tables_per_core(row)

    def line(row: dict[str, Any], runs: int) -> str:
        final = "yes" if row["final_ok_all"] else f"{row['final_ok']} of {row['games'] * runs}"
        name = row["peer"] + (" (py-spy)" if row["profiled"] else "")
        cells = (name, _fmt(row["games"]), _fmt(row["think_ms"]), str(runs), _fmt(row["actions_per_s"], 0),
                 _fmt(row["cpu_ms_per_action"], 3), _fmt(row["cores"], 3), _fmt(row["p50"], 1),
                 _fmt(row["p99"], 1), _fmt(row["max"], 1), _fmt(row["rss_mb"], 0), _fmt(row["setup_s"], 1),
                 _fmt(row["errors"]), final, _fmt(row["tables_by_cpu"], 0), _fmt(row["tables_per_core"], 0),
                 _fmt(row["other_cpu_s"], 1),
                 _fmt(row["calibration_ms"], 0))
        return " | ".join(cells)

    rule = " | ".join("---" for _ in PACE_HEAD)
    lines = ["Every run, in the order run:", "", " | ".join(PACE_HEAD), rule]
    lines += [line(row, 1) for row in rows]
    groups: dict[tuple[int, int, str], list[dict[str, Any]]] = {}
    for row in rows:
        if not row["profiled"]:
            groups.setdefault((row["games"], row["think_ms"], row["peer"]), []).append(row)
    lines += ["", "Medians per server (runs under py-spy left out):", "", " | ".join(PACE_HEAD), rule]
    for (games, think, peer), runs in sorted(groups.items()):
        median = {name: _median([r[name] for r in runs]) for name in PACE_MEDIANS}
        median.update(peer=peer, games=games, think_ms=think, errors=sum(r["errors"] for r in runs),
                      final_ok=sum(r["final_ok"] or 0 for r in runs), profiled=False,
                      final_ok_all=all(r["final_ok_all"] for r in runs))
        median["tables_by_cpu"] = games / median["cores"] if median["cores"] else None
        median["tables_per_core"] = tables_per_core(median)
        lines.append(line(median, len(runs)))
    return "\n".join([*lines, "", PACE_NOTES])


def main() -> int:
    """Run every peer and Shipmate for each number of games; print the table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pace", action="store_true",
                        help=f"table pace: players think between actions (default {PACE_GAMES} games, "
                             f"--think-ms {PACE_THINK_MS}, --duration {PACE_DURATION}, "
                             f"--repeat {PACE_REPEAT}, --updates patch); one table of medians per server")
    parser.add_argument("--games", type=int, nargs="+", help="games at once (default 10 50; --pace: 1000)")
    parser.add_argument("--duration", type=int, help="seconds measured (default 20; --pace: 60)")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--think-ms", type=int,
                        help=f"--pace: each player's mean think time before an action, in ms "
                             f"(default {PACE_THINK_MS})")
    parser.add_argument("--workers", type=int, help="gunicorn workers (default: deploy/gunicorn.conf.py's)")
    parser.add_argument("--connections", type=int,
                        help="gunicorn worker_connections (default: deploy/gunicorn.conf.py's 2000; "
                             "--pace: 5 per game plus 1000)")
    parser.add_argument("--repeat", type=int,
                        help="rounds of every run, alternated (the table adds medians and ratios of "
                             f"medians); default 1, --pace {PACE_REPEAT}")
    parser.add_argument("--peers", default="boardgameio colyseus", help="peers to run beside Shipmate")
    add_peers_dir(parser)
    parser.add_argument("--updates", choices=("full", "patch"), nargs="+",
                        help="how Shipmate's sockets get each change, one Shipmate run per way: full views "
                             "(the shared load client's default) and patches (what the web app asks for); "
                             "default full patch, --pace patch")
    parser.add_argument("--profile", type=float, default=0.0, metavar="SECONDS",
                        help="--pace: after the last round, one more Shipmate run (each --updates) whose "
                             "worker py-spy records for this long in the window; left out of the medians")
    parser.add_argument("--appendfsync", choices=("always", "everysec"), nargs="+", default=["always"],
                        help="when Shipmate's Redis syncs its append-only file: before each answer, as "
                             "deploy/redis.conf (default), or once a second; both: one Shipmate run "
                             "each, alternated with the others (what durability costs, in one run)")
    parser.add_argument("--table", type=Path, metavar="RESULTS_JSONL",
                        help="print the table of a saved run (its results.jsonl) and run nothing")
    args = parser.parse_args()
    if args.table:
        saved = [json.loads(line) for line in args.table.read_text().splitlines() if line]
        print(pace_table(saved) if any(r.get("think_ms") for r in saved) else table(saved))
        return 0
    if args.pace:
        return pace(args)
    if args.think_ms or args.profile:
        parser.error("--think-ms and --profile go with --pace")
    args.games = args.games or [10, 50]
    args.duration = args.duration or 20
    args.repeat = args.repeat or 1
    args.updates = args.updates or ["full", "patch"]

    peers = peers_copy(args.peers_dir)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    log_dir = RESULTS / f"compare-{stamp}"
    log_dir.mkdir(parents=True, exist_ok=True)
    print(f"[compare] {stamp}; loadavg {Path('/proc/loadavg').read_text().split()[:3]}; logs in {log_dir}",
          file=sys.stderr)
    results: list[dict[str, Any]] = []
    for _ in range(args.repeat):
        for games in args.games:
            common = {"GAMES": str(games), "DURATION": str(args.duration), "WARMUP": str(args.warmup)}
            if args.peers.strip():
                results += run_sh(peers, {**common, "PEERS": args.peers}, log_dir / "run.log")
            results += [run_shipmate(peers, games, common, args.workers, log_dir, updates, args.connections,
                                     appendfsync=fsync)
                        for updates in args.updates for fsync in args.appendfsync]
    with (log_dir / "results.jsonl").open("w") as out:
        for result in results:
            out.write(json.dumps(result) + "\n")
    text = table(results) + "\n\n" + frame_sizes()
    (log_dir / "table.md").write_text(text + "\n")
    print(text)
    return 0 if all(r["errors"] == 0 for r in results) else 1


def pace(args: argparse.Namespace) -> int:
    """Run the table-pace rounds: each server once per round and size, the order rotated; print the table."""
    games_list = args.games or [PACE_GAMES]
    think = PACE_THINK_MS if args.think_ms is None else args.think_ms
    duration = args.duration or PACE_DURATION
    repeat = args.repeat or PACE_REPEAT
    updates_list = args.updates or ["patch"]
    if args.profile and not PY_SPY.exists():
        raise SystemExit(f"--profile needs py-spy: {PY_SPY.parent / 'pip'} install py-spy")
    peers = peers_copy(args.peers_dir)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    log_dir = RESULTS / f"pace-{stamp}"
    log_dir.mkdir(parents=True, exist_ok=True)
    print(f"[compare --pace] {stamp}; loadavg {Path('/proc/loadavg').read_text().split()[:3]}; "
          f"{repeat} rounds of {games_list} games, THINK_MS={think}, {duration} s; logs in {log_dir}",
          file=sys.stderr)
    servers: list[tuple[str, str | None, str]] = [(peer, None, "") for peer in args.peers.split()]
    servers += [("shipmate", updates, fsync) for updates in updates_list for fsync in args.appendfsync]
    results: list[dict[str, Any]] = []
    failed: list[str] = []
    with (log_dir / "results.jsonl").open("w") as out:
        for round_ in range(repeat):
            turn = round_ % len(servers)
            for games in games_list:
                # 1,000 tables take 15-80 s to set up on this VM, more beside other work: the load
                # client's 90 s default is stretched to 120 s (run.sh allows 140 s and more).
                common = {"GAMES": str(games), "DURATION": str(duration), "WARMUP": str(args.warmup),
                          "THINK_MS": str(think), "SETUP_TIMEOUT_S": "120"}
                runs = [(*server, 0.0) for server in servers[turn:] + servers[:turn]]
                if args.profile and round_ == repeat - 1:  # one more Shipmate run each way, under py-spy
                    runs += [("shipmate", way, args.appendfsync[0], args.profile) for way in updates_list]
                for peer, updates, fsync, profile in runs:
                    print(f"[compare --pace] round {round_ + 1}: {peer} {updates or ''} {fsync} "
                          f"at {games} games"
                          f"{' under py-spy' if profile else ''}; "
                          f"loadavg {Path('/proc/loadavg').read_text().split()[:3]}", file=sys.stderr)
                    try:
                        if updates is None:
                            found = run_sh(peers, {**common, "PEERS": peer}, log_dir / "run.log")
                        else:
                            connections = args.connections or 5 * games + 1000
                            found = [run_shipmate(peers, games, common, args.workers, log_dir, updates,
                                                  connections, profile, fsync)]
                    except RuntimeError as exc:  # one failed run does not cost the others
                        print(f"[compare --pace] {peer} failed: {exc}", file=sys.stderr)
                        failed.append(f"{peer} {updates or ''} in round {round_ + 1} at {games} games: "
                                      f"{str(exc)[:200]}")
                        continue
                    for result in found:
                        result.setdefault("detail", {})["pace_round"] = round_ + 1
                        out.write(json.dumps(result) + "\n")
                        out.flush()
                    results += found
    text = pace_table(results)
    if failed:  # the load client's log (run.log names it) says why
        text += "\n\nRuns that gave no result:\n" + "\n".join(f"- {line}" for line in failed)
    head = (f"bench/compare --pace, started {stamp}: {repeat} round(s), THINK_MS={think}, "
            f"window {duration} s after {args.warmup} s of warm-up; commit {git_commit()}")
    (log_dir / "table.md").write_text(head + "\n\n" + text + "\n")
    print(head + "\n\n" + text)
    return 0 if results and not failed and all(r["errors"] == 0 for r in results) else 1


def git_commit() -> str:
    """Return the commit measured, and whether backend/ had changes not in it."""
    def git(*command: str) -> str:
        done = subprocess.run(["git", *command], cwd=ROOT, capture_output=True, text=True, check=False)
        return done.stdout.strip()

    changed = git("status", "--short", "backend")
    return git("rev-parse", "--short", "HEAD") + (" with uncommitted changes in backend/" if changed else "")


def frame_sizes() -> str:
    """Return bench/frames.py's count of every update frame (median and largest), patch and full."""
    command = [sys.executable, str(ROOT / "bench" / "frames.py"), "--games", "2", "--turns", "40"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return f"bench/frames.py failed: {done.stderr.strip()[-500:]}"
    return "Shipmate's update frames, every one counted (bench/frames.py, 2 games, 40 turns):\n" + done.stdout


if __name__ == "__main__":
    sys.exit(main())
