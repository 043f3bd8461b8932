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
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from . import serve as table
from .embedded import DataDirInUse, EmbeddedRedis
from .net import is_loopback, lan_address, phone_url

# The store, the rules and redis are imported by `verify` and `export` when they run, never by
# `serve`: its process becomes gunicorn's master, and a master that imported redis (whose asyncio
# client holds `ssl.SSLContext`) makes each gevent worker it forks warn that ssl was imported before
# it was monkey-patched.
if TYPE_CHECKING:
    import redis

CODE = re.compile(r"[A-HJKMNP-Z2-9]{6}")
LINK = re.compile(r"https?://", re.IGNORECASE)
SEED = re.compile(r"[0-9a-f]{64}")

KEEP_DAYS = 30
"""Days a game is kept after its last change, unless IDLE_TTL (seconds) or --keep-days says otherwise."""

OK, FAILED, NOT_FOUND, NOT_FINISHED, UNAVAILABLE = 0, 1, 3, 4, 5
"""`verify`'s and `export`'s exit codes (2 is argparse's, for a command line it cannot read)."""

EXIT_CODES = """exit codes:
  0  every die matches the seed (export: the record was written)
  1  a die or the seed does not match: the record was changed
  2  the command line was wrong
  3  no such game, or the file is not a game record
  4  the game is not finished: its seed stays secret until the end
  5  Redis (or the server of a game's link) could not be reached
"""


class CannotCheck(Exception):
    """The game cannot be checked; `exit_code` says why (NOT_FOUND, NOT_FINISHED)."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


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


def _banner(url: str, args: argparse.Namespace, keep_days: float, redis_text: str) -> str:
    lines = ["", "Shipmate is ready.", f"Phones on this network open:  {url}", "", table.qr_code(url)]
    if is_loopback(args.host) and not args.public_url:
        lines.append("Only this computer can open it, and the links and QR codes it hands out; use "
                     "--host 0.0.0.0 to let phones in.")
    elif is_loopback(urlsplit(url).hostname or "") and not args.public_url:
        lines.append("This computer is on no network: join the table's Wi-Fi, then start again.")
    if args.tls:
        lines += ["Each phone warns once that the certificate is not trusted (this computer made it):",
                  "open the address, tap Advanced (Show details on an iPhone), then Proceed (visit this",
                  "website). A phone that refused it can only reach the server after accepting it."]
    lines += [
        "Phones cannot connect? They need the same Wi-Fi (not a guest network), and the firewall",
        f"must let port {args.port} in: see 'When phones cannot connect' in README.md.",
        f"Data: {redis_text}.",
        f"A game is kept {keep_days:g} days after its last change (--keep-days). Stop with Ctrl-C.", "",
    ]
    return "\n".join(lines)


def _keep_days(args: argparse.Namespace) -> float:
    """Return how many days games are kept, and hand it to the web workers (IDLE_TTL, in seconds)."""
    if args.keep_days is None and os.environ.get("IDLE_TTL", "").isdigit():
        return int(os.environ["IDLE_TTL"]) / 86400
    days = args.keep_days or KEEP_DAYS
    os.environ["IDLE_TTL"] = str(days * 86400)
    return float(days)


def serve(args: argparse.Namespace) -> int:
    """Run a table server until it is stopped; the embedded Redis stops with it."""
    # Until gunicorn's master takes the signals over, SIGTERM and SIGHUP unwind through the
    # `with` below (Python's default would end the process with no cleanup at all).
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _exit_on_signal)
    problem = table.port_problem(args.host, args.port)
    if problem:
        print(f"shipmate serve: {problem}.", file=sys.stderr)
        return 1
    lan = lan_address()
    tls = None
    if args.tls:
        addresses = [lan]
        with contextlib.suppress(ValueError):
            if not ipaddress.ip_address(args.host).is_unspecified:
                addresses.append(args.host)
        try:
            tls = table.certificate(args.data_dir / "tls", addresses)
        except OSError as exc:
            print(f"shipmate serve: cannot write the certificate in {exc.filename or args.data_dir}: "
                  f"{exc.strerror}; pass another --data-dir.", file=sys.stderr)
            return 1
    url = args.public_url or phone_url(args.host, args.port, tls is not None, lan)
    keep_days = _keep_days(args)
    options = table.Options(args.host, args.port, args.workers, args.connections, tls)
    try:
        with redis_for(args.data_dir, share=False) as (redis_url, redis_text):
            os.environ["REDIS_URL"] = redis_url
            if args.public_url:
                os.environ["PUBLIC_URL"] = args.public_url  # the web app's base for join links
            os.environ["BIND_HOST"] = args.host  # links carry the address the server listens on
            table.run(options, _banner(url, args, keep_days, redis_text))
    except DataDirInUse as exc:
        print(f"shipmate serve: {exc}; stop it first or pass another --data-dir.", file=sys.stderr)
        return 1
    except OSError as exc:  # the data folder cannot be made or written
        print(f"shipmate serve: cannot use {exc.filename or args.data_dir}: {exc.strerror}; "
              "pass another --data-dir.", file=sys.stderr)
        return 1
    except RuntimeError as exc:  # the embedded Redis did not start; the message ends with its log
        print(f"shipmate serve: {exc}", file=sys.stderr)
        return 1
    return 0


def public_record(client: redis.Redis, code: str) -> dict[str, Any]:
    """Return {"seed", "events"} of a finished game as its public view shows them.

    Raises CannotCheck for an unknown game or one whose seed is still secret.
    """
    from . import games  # noqa: F401 - importing it registers every game with the rules core
    from .rules import PUBLIC, event_view_for, view_for
    from .store import GameStore

    store = GameStore(client)
    state = store.load(code)
    if state is None:
        raise CannotCheck(f"there is no game {code}", NOT_FOUND)
    seed = view_for(state, PUBLIC).get("seed")
    if not seed:
        raise CannotCheck(f"game {code} is not finished ({state.get('phase')}): its seed stays secret",
                          NOT_FINISHED)
    events = [event_view_for(state, event, PUBLIC) for event in store.events_since(code, -1)]
    return {"seed": seed, "events": events}


def read_record(path: Path) -> dict[str, Any]:
    """Return the {"seed", "events"} record in a JSON file, or raise CannotCheck."""
    try:
        record = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CannotCheck(f"cannot read {path}: {exc}", NOT_FOUND) from None
    if not isinstance(record, dict) or not isinstance(record.get("events"), list):
        raise CannotCheck(f'{path} is not a game record {{"seed": hex, "events": [...]}}', NOT_FOUND)
    if not record.get("seed"):
        raise CannotCheck(f"{path} has no seed: it is revealed once the game is finished", NOT_FINISHED)
    return record


def _fetch_json(url: str) -> Any:
    import ssl
    from urllib.request import urlopen

    # A table's certificate is made by `serve --tls` and trusted by no one else. The record does not
    # rest on it: its dice are checked against the seed's commitment the table saw from the start.
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    with urlopen(url, timeout=30, context=context) as response:
        return json.loads(response.read())


def linked_record(link: str) -> dict[str, Any]:
    """Return {"seed", "events"} of a finished game from the server that a link of it names (the
    address its end screen shows: /join/CODE, /screen/CODE …), as that server's public view shows them.

    Raises CannotCheck for a link without a game's code, an unknown game or one still playing, and
    OSError when the server cannot be reached.
    """
    from urllib.error import HTTPError

    parts = urlsplit(link)
    code = next((p.upper() for p in reversed(parts.path.split("/")) if CODE.fullmatch(p.upper())), None)
    if code is None:
        raise CannotCheck(f"{link} names no game (its last part is a 6-character code)", NOT_FOUND)
    base = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    try:
        state = _fetch_json(f"{base}/api/games/{code}")
        if not state.get("seed"):
            raise CannotCheck(f"game {code} is not finished ({state.get('phase')}): its seed stays secret",
                              NOT_FINISHED)
        events = _fetch_json(f"{base}/api/games/{code}/events?since=-1")["events"]
    except HTTPError as exc:
        if exc.code == 404:
            raise CannotCheck(f"there is no game {code} at {base}", NOT_FOUND) from None
        raise OSError(f"{base} answered {exc.code} {exc.reason}") from None
    return {"seed": state["seed"], "events": events}


def _public_record(data_dir: Path, target: str, what: str) -> dict[str, Any] | int:
    """Return a game's public record from a link of it or Redis, or print why there is none and
    return the exit code."""
    import redis

    from .store import Unavailable

    if LINK.match(target):
        try:
            return linked_record(target)
        except CannotCheck as exc:
            return _cannot(what, exc, exc.exit_code)
        except (OSError, ValueError, KeyError) as exc:
            return _cannot(what, exc, UNAVAILABLE)
    code = target.upper()
    if not CODE.fullmatch(code):
        print(f"Cannot {what}: {target!r} is neither a game code (6 letters and digits), a game's link "
              "nor a file.", file=sys.stderr)
        return NOT_FOUND
    try:
        with redis_for(data_dir, share=True) as (url, _), redis.Redis.from_url(url) as client:
            return public_record(client, code)
    except CannotCheck as exc:
        return _cannot(what, exc, exc.exit_code)
    except (Unavailable, redis.RedisError, RuntimeError, OSError) as exc:
        return _cannot(what, exc, UNAVAILABLE)


def _cannot(what: str, exc: Exception, code: int) -> int:
    print(f"Cannot {what}: {str(exc).rstrip('.')}.", file=sys.stderr)
    return code


def verify_command(args: argparse.Namespace) -> int:
    """Check every die of a finished game against its revealed seed."""
    from .rules import verify

    path = Path(args.target)
    name = args.target if LINK.match(args.target) else args.target.upper()
    if path.is_file():
        try:
            name, record = str(path), read_record(path)
        except CannotCheck as exc:
            return _cannot("verify", exc, exc.exit_code)
    else:
        found = _public_record(args.data_dir, args.target, "verify")
        if isinstance(found, int):
            return found
        record = found
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
    record = _public_record(args.data_dir, args.target, "export")
    if isinstance(record, int):
        return record
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
    top = argparse.ArgumentParser(
        prog="shipmate", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  shipmate serve                       a table server on port 8000; Ctrl-C stops it\n"
               "  shipmate serve --tls                 the same over HTTPS (to install the app)\n"
               "  shipmate verify K7QX2M               check every die of a finished game\n"
               "  shipmate verify http://192.168.1.20:8000/join/K7QX2M\n"
               "                                       the same from its link, on any computer\n"
               "  shipmate export K7QX2M -o game.json  its public record, for anyone to verify\n"
               "\n'shipmate COMMAND --help' tells more. From a clone: bash scripts/shipmate COMMAND …")
    commands = top.add_subparsers(dest="command", required=True)
    data = argparse.ArgumentParser(add_help=False)
    data.add_argument(
        "--data-dir", type=Path, default=table.data_home(),
        help="where the embedded Redis and the TLS certificate live (default: %(default)s)",
    )

    run = commands.add_parser(
        "serve", parents=[data], help="run a table server",
        description="Run a table server until Ctrl-C. Without REDIS_URL it runs its own Redis, with "
                    "the games in DATA_DIR/redis.")
    run.add_argument("--host", default="0.0.0.0",
                     help="address to listen on (default: all); links and QR codes carry it, so with "
                          "127.0.0.1 they open on this computer only")
    run.add_argument("--port", type=_positive, default=8000, help="port to listen on (default: %(default)s)")
    run.add_argument("--workers", type=_positive, default=table.DEFAULT_WORKERS, help="processes")
    run.add_argument("--connections", "--threads", type=_positive, default=table.DEFAULT_CONNECTIONS,
                     help="open connections per process; each open WebSocket holds one")
    run.add_argument("--tls", action="store_true",
                     help="serve HTTPS with a certificate made here (each phone accepts its warning once); "
                          "needed to install the app, keep screens on and start offline")
    run.add_argument("--public-url",
                     help="the URL to show phones and to put in join links (e.g. behind a proxy)")
    run.add_argument("--keep-days", type=_positive, metavar="DAYS",
                     help=f"days a game is kept after its last change (default: {KEEP_DAYS}, "
                          "or IDLE_TTL seconds)")
    run.set_defaults(handler=serve)

    check = commands.add_parser("verify", parents=[data], help="check a finished game's dice",
                                description="Re-derive every die of a finished game from its revealed seed.",
                                epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("target", metavar="CODE|LINK|FILE",
                       help="a game code (read from Redis), a link of the game (read from its server, as "
                            'its end screen shows it) or a JSON file {"seed", "events"}')
    check.set_defaults(handler=verify_command)

    out = commands.add_parser("export", parents=[data], help="write a finished game's public record",
                              description="Write a finished game's seed and public events as JSON, "
                                          "for anyone to check with `shipmate verify FILE`.",
                              epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    out.add_argument("target", metavar="CODE|LINK",
                     help="a game code (read from Redis) or a link of the game (read from its server)")
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
