"""Sum a py-spy raw profile of a Shipmate worker by the work each sample was doing.

    .venv/bin/python bench/pyspy_split.py bench/results/pace-<time>/py-spy-1000-patch-<time>.txt

The file is `py-spy record --format raw` output (bench/compare --pace --profile writes it): one line
per distinct stack, root first, frames separated by ";", then the sample count. py-spy keeps only
samples in which the worker's thread was on the CPU, and under gevent every greenlet runs on that one
thread, so each sample is the greenlet that was running; the split is of the worker's CPU. A stack is
put in the first group below that one of its frames names (an action's in a part of it: fan-out,
commit, answer, decide); the rest are grouped by the first Shipmate (or else the first non-gevent)
frame on them. gevent's thread-pool threads waiting for work count as on the CPU to py-spy; they
are left out. Printed: each group's share of the samples, each package's share of the samples whose
innermost Python frame is in it (the system calls and C code a frame runs count to it: gevent's
socket `send` holds the kernel's), and the leaf functions that took the most samples of their own.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

# (group, frame names: a stack belongs to the group if one of its frames' function names is one of
# these). First match wins, so the specific ones come first.
GROUPS: list[tuple[str, tuple[str, ...]]] = [
    # Writes are done by whoever hands a socket something (an action's fan-out, the subscription,
    # the timer, a reader's answer), or by a writer thread of a slow socket: one group, whoever wrote.
    ("socket writes (updates, patches, answers, ping messages on the wire)",
     ("Connection._drain", "Connection._write")),
    ("keep-alive pings (a silent socket's reader)", ("WebSocket._keep_alive",)),
    ("presence refresh (the rooms' timer)", ("Rooms._refresh_presence",)),
    ("ping messages queued (the rooms' timer)", ("Rooms._tick",)),
    ("Idempotency-Key lease renewals", ("Leases._run",)),
    ("the subscription: reads and fan-out of published changes", ("Subscription._run",)),
    ("actions over sockets", ("Connection._act",)),
    ("socket readers (frames in, pongs, pings answered)", ("Connection._read", "WebSocket.receive")),
    ("WebSocket handshakes, snapshots, closes", ("game_socket",)),
    ("HTTP API requests (set-up)", ("Flask.wsgi_app", "Flask.__call__")),
    ("gunicorn's worker loop (heartbeat)", ("GeventWorker.run", "Worker.notify")),
]
# Parts of a group, the same way (first match; the rest is the group's own).
PARTS: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "actions over sockets": [
        ("fan-out: the change's update, handed to each socket", ("Room.hand_out",)),
        ("commit: encode and the Redis round trip", ("GameStore.commit",)),
        ("a refusal checked on the current version (a Redis GET)", ("GameStore.version",)),
        ("the answer to the acting socket", ("Connection._shown",)),
        ("decide: the rules, and the rest", ()),
    ],
}
LOOP = "the gevent loop itself (timers, I/O wake-ups, switches)"
IDLE = ("_Condition.wait",)
"""Frames of a native thread that waits for work (gevent's thread pool marks them idle; py-spy does not)."""
FRAME = re.compile(r"^(?P<function>.*) \((?P<file>[^()]*?)(?::\d+)?\)$")


def frames(stack: str) -> list[tuple[str, str]]:
    """Return (function, file) for each frame of a raw stack, root first."""
    found = []
    for frame in stack.split(";"):
        match = FRAME.match(frame.strip())
        found.append((match["function"], match["file"]) if match else (frame.strip(), ""))
    return found


def group_of(stack: list[tuple[str, str]]) -> str | None:
    """Return the group a stack belongs to ("group: part" for a group with parts); None when idle."""
    names = {function for function, _ in stack}
    if names.intersection(IDLE):
        return None
    for group, markers in GROUPS:
        if names.intersection(markers):
            for part, part_markers in PARTS.get(group, []):
                if not part_markers or names.intersection(part_markers):
                    return f"{group}: {part}"
            return group
    if all(file.startswith("gevent/") or "greenlet" in file or not file for _, file in stack):
        return LOOP
    for function, file in stack:
        if "shipmate/" in file:
            return f"other: {function} ({file})"
    for function, file in stack:
        if not file.startswith(("gevent/", "threading")):
            return f"other: {function} ({file})"
    return f"other: {stack[0][0]}"


def package_of(file: str) -> str:
    """The package a frame's file belongs to: Shipmate, a library by its top folder, or the
    standard library (py-spy names files from their sys.path entry)."""
    if "shipmate/" in file:
        return "shipmate (ours)"
    if "greenlet" in file or file.startswith("gevent/"):
        return "gevent"
    top, slash, _ = file.partition("/")
    return top if slash and top not in STDLIB else "the standard library"


GENERATED = "<string>"
"""The file of code made at run time (a dataclass's `__init__`): it counts to the frame that called it."""
STDLIB = {"json", "email", "http", "urllib", "importlib", "concurrent", "collections", "logging"}
"""Top folders of the standard library's packages (a library's are named by their own)."""


def main() -> int:
    """Print the split of one raw profile."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("profile", type=Path)
    parser.add_argument("--leaves", type=int, default=15, help="leaf functions to list")
    args = parser.parse_args()
    groups: Counter[str] = Counter()
    leaves: Counter[str] = Counter()
    packages: Counter[str] = Counter()
    total = idle = 0
    for line in args.profile.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        parsed = frames(stack)
        group = group_of(parsed)
        if group is None:
            idle += int(count)
            continue
        groups[group] += int(count)
        function, file = parsed[-1]
        leaves[f"{function} ({file})"] += int(count)
        packages[package_of(next((f for _, f in reversed(parsed) if f != GENERATED), file))] += int(count)
        total += int(count)
    print(f"{total} samples on the CPU in {args.profile.name} "
          f"({idle} more of a native thread waiting for work, left out)")
    print("\nshare | samples | work")
    for group, count in groups.most_common():
        print(f"{100 * count / total:5.1f} % | {count:6} | {group}")
    print("\nshare | samples | package of the innermost frame")
    for package, count in packages.most_common():
        print(f"{100 * count / total:5.1f} % | {count:6} | {package}")
    print(f"\nleaf functions (own samples), top {args.leaves}:")
    for leaf, count in leaves.most_common(args.leaves):
        print(f"{100 * count / total:5.1f} % | {count:6} | {leaf}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
