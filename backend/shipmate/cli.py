"""The `shipmate` command: `serve` a table, `verify` a finished game's dice, `export` its public record."""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import json
import os
import re
import signal
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis

from . import games  # noqa: F401 - importing it registers every game with the rules core
from . import serve as table
from .embedded import DataDirInUse, EmbeddedRedis
from .rules import PUBLIC, event_view_for, verify, view_for
from .store import GameStore, Unavailable

CODE = re.compile(r"[A-HJKMNP-Z2-9]{6}")
SEED = re.compile(r"[0-9a-f]{64}")

OK, FAILED, CANNOT_CHECK = 0, 1, 2


class CannotCheck(Exception):
    """The game cannot be checked (yet): unknown, not finished, or a malformed record."""


def _hide_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


@contextlib.contextmanager
def redis_for(data_dir: Path, *, share: bool) -> Iterator[tuple[str, str]]:
    """Yield (URL, description) of the Redis to use: REDIS_URL, else the embedded one.

    The embedded server keeps its data in <data_dir>/redis and is stopped when the block ends,
    however it ends. With `share`, one that a running `shipmate serve` holds on the folder is used.
    """
    url = os.environ.get("REDIS_URL")
    if url:
        yield url, f"Redis at {_hide_password(url)} (REDIS_URL)"
        return
    folder = data_dir / "redis"
    in_use = EmbeddedRedis.running(folder) if share else None
    if in_use:
        yield in_use[1], f"the embedded Redis of the running server (pid {in_use[0]}), data in {folder}"
        return
    with EmbeddedRedis(folder) as server:
        assert server.process is not None
        yield server.url, f"embedded Redis (valkey-server pid {server.process.pid}), data in {folder}"


def _exit_on_signal(signum: int, _frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def _banner(url: str, bound_here_only: bool, redis_text: str) -> str:
    lines = ["", "Shipmate is ready.", f"Phones on this network open:  {url}", "", table.qr_code(url)]
    if bound_here_only:
        lines.append("Only this computer can open it; use --host 0.0.0.0 to let phones in.")
    lines += [f"Data: {redis_text}.", "Stop with Ctrl-C.", ""]
    return "\n".join(lines)


def serve(args: argparse.Namespace) -> int:
    """Run a table server until it is stopped; the embedded Redis stops with it."""
    # Until gunicorn's master takes the signals over, SIGTERM and SIGHUP unwind through the
    # `with` below (Python's default would end the process with no cleanup at all).
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _exit_on_signal)
    lan = table.lan_address()
    tls = None
    if args.tls:
        addresses = [lan]
        with contextlib.suppress(ValueError):
            if not ipaddress.ip_address(args.host).is_unspecified:
                addresses.append(args.host)
        tls = table.certificate(args.data_dir / "tls", addresses)
    url = args.public_url or table.phone_url(args.host, args.port, tls is not None, lan)
    local_only = args.host in ("127.0.0.1", "localhost", "::1") and not args.public_url
    options = table.Options(args.host, args.port, args.workers, args.connections, tls)
    try:
        with redis_for(args.data_dir, share=False) as (redis_url, redis_text):
            os.environ["REDIS_URL"] = redis_url
            if args.public_url:
                os.environ["PUBLIC_URL"] = args.public_url  # the web app's base for join links
            table.run(options, _banner(url, local_only, redis_text))
    except DataDirInUse as exc:
        print(f"shipmate serve: {exc}; stop it first or pass another --data-dir.", file=sys.stderr)
        return 1
    return 0


def public_record(client: redis.Redis, code: str) -> dict[str, Any]:
    """Return {"seed", "events"} of a finished game as its public view shows them.

    Raises CannotCheck for an unknown game or one whose seed is still secret.
    """
    store = GameStore(client)
    state = store.load(code)
    if state is None:
        raise CannotCheck(f"there is no game {code}")
    seed = view_for(state, PUBLIC).get("seed")
    if not seed:
        raise CannotCheck(f"game {code} is not finished ({state.get('phase')}): its seed stays secret")
    events = [event_view_for(state, event, PUBLIC) for event in store.events_since(code, -1)]
    return {"seed": seed, "events": events}


def read_record(path: Path) -> dict[str, Any]:
    """Return the {"seed", "events"} record in a JSON file, or raise CannotCheck."""
    try:
        record = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CannotCheck(f"cannot read {path}: {exc}") from None
    if not isinstance(record, dict) or not isinstance(record.get("events"), list):
        raise CannotCheck(f'{path} is not a game record {{"seed": hex, "events": [...]}}')
    if not record.get("seed"):
        raise CannotCheck(f"{path} has no seed: it is revealed once the game is finished")
    return record


@contextlib.contextmanager
def _connected(data_dir: Path) -> Iterator[redis.Redis]:
    with redis_for(data_dir, share=True) as (url, _), redis.Redis.from_url(url) as client:
        yield client


def _target(value: str) -> str:
    if Path(value).is_file() or CODE.fullmatch(value.upper()):
        return value
    raise argparse.ArgumentTypeError(f"{value!r} is neither a game code nor a file")


def _cannot(what: str, exc: Exception) -> int:
    print(f"Cannot {what}: {str(exc).rstrip('.')}.", file=sys.stderr)
    return CANNOT_CHECK


def verify_command(args: argparse.Namespace) -> int:
    """Check every die of a finished game against its revealed seed."""
    path, name = Path(args.target), args.target.upper()
    try:
        if path.is_file():
            name, record = str(path), read_record(path)
        else:
            with _connected(args.data_dir) as client:
                record = public_record(client, name)
    except (CannotCheck, Unavailable) as exc:
        return _cannot("verify", exc)
    seed = record["seed"]
    if not isinstance(seed, str) or not SEED.fullmatch(seed):
        print(f"{name}: the seed is not 64 hex digits: {seed!r}", file=sys.stderr)
        return FAILED
    verdict = verify(record["events"], seed)
    if verdict.ok:
        print(f"{name}: OK, {verdict.dice_checked} dice checked, every one derived from the seed.")
        return OK
    print(f"{name}: {verdict.dice_checked} dice checked, {len(verdict.problems)} problem(s):")
    for problem in verdict.problems:
        print(f"  - {problem}")
    return FAILED


def export_command(args: argparse.Namespace) -> int:
    """Write a finished game's public record (seed and events) as JSON."""
    try:
        with _connected(args.data_dir) as client:
            record = public_record(client, args.target)
    except (CannotCheck, Unavailable) as exc:
        return _cannot("export", exc)
    text = json.dumps(record, indent=1, ensure_ascii=False) + "\n"
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return OK


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return number


def parser() -> argparse.ArgumentParser:
    """Build the command-line parser."""
    top = argparse.ArgumentParser(prog="shipmate", description=__doc__)
    commands = top.add_subparsers(dest="command", required=True)
    data = argparse.ArgumentParser(add_help=False)
    data.add_argument(
        "--data-dir", type=Path, default=table.data_home(),
        help="where the embedded Redis and the TLS certificate live (default: %(default)s)",
    )

    run = commands.add_parser("serve", parents=[data], help="run a table server")
    run.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    run.add_argument("--port", type=_positive, default=8000)
    run.add_argument("--workers", type=_positive, default=table.DEFAULT_WORKERS, help="processes")
    run.add_argument("--connections", "--threads", type=_positive, default=table.DEFAULT_CONNECTIONS,
                     help="open connections per process; each open WebSocket holds one")
    run.add_argument("--tls", action="store_true", help="serve HTTPS with a self-signed certificate")
    run.add_argument("--public-url", help="the URL to show phones (e.g. behind a proxy)")
    run.set_defaults(handler=serve)

    check = commands.add_parser("verify", parents=[data], help="check a finished game's dice")
    check.add_argument("target", type=_target, metavar="CODE|FILE",
                       help='a game code (read from Redis) or a JSON file {"seed", "events"}')
    check.set_defaults(handler=verify_command)

    out = commands.add_parser("export", parents=[data], help="write a finished game's public record")
    out.add_argument("target", type=str.upper, metavar="CODE")
    out.add_argument("-o", "--output", help="file to write (default: standard output)")
    out.set_defaults(handler=export_command)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line."""
    args = parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
