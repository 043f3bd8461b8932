"""Verifiable dice, exactly as docs/PROTOCOL.md derives them.

The seed is 32 secret bytes; its SHA-256 is shown from the start. Die number ``i`` takes
``HMAC-SHA256(key=seed, msg=str(i))`` and returns ``1 + b % 6`` for its first byte ``b`` below 252;
if no byte qualifies it tries ``msg=f"{i}:{k}"`` for k = 1, 2, …  Card draws use the same
construction with messages ``f"draw:{n}"`` so that they, too, are fixed by the seed.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


def commitment(seed_hex: str) -> str:
    """Return the public commitment to a seed: ``sha256(seed).hexdigest()``."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def _uniform(seed: bytes, label: str, sides: int) -> int:
    limit = 256 - 256 % sides
    k = 0
    while True:
        msg = label if k == 0 else f"{label}:{k}"
        digest = hmac.new(seed, msg.encode(), hashlib.sha256).digest()
        for b in digest:
            if b < limit:
                return b % sides
        k += 1


def die(seed_hex: str, index: int) -> int:
    """Return the value (1–6) of die number `index` of the game with this seed."""
    return 1 + _uniform(bytes.fromhex(seed_hex), str(index), 6)


def draw(seed_hex: str, number: int, size: int) -> int:
    """Return a position in ``range(size)`` for card draw number `number` (size ≤ 256)."""
    if not 0 < size <= 256:
        raise ValueError(f"cannot draw from {size} cards")
    return _uniform(bytes.fromhex(seed_hex), f"draw:{number}", size)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What `verify` found: how many dice it checked and every die that does not match."""

    ok: bool
    dice_checked: int
    problems: tuple[str, ...]


_SCALARS = (str, int, float, type(None))


def dice_in(value: Any) -> Iterable[Mapping[str, Any]]:
    """Yield every ``{"index", "value"}`` die recorded anywhere inside an event."""
    if isinstance(value, Mapping):
        if "index" in value and "value" in value and isinstance(value["index"], int):
            yield value
        children: Iterable[Any] = value.values()
    elif isinstance(value, list):
        children = value
    else:
        return
    for item in children:
        if not isinstance(item, _SCALARS):  # scalars hold no dice: no generator for them
            yield from dice_in(item)


def verify(events: Iterable[Mapping[str, Any]], seed_hex: str) -> Verdict:
    """Check every die recorded in a game's events against the revealed seed.

    The seed must match the commitment published at the start, every index must be used once,
    the indices must run 0, 1, 2, … without gaps, and each value must be the derived one.
    """
    problems: list[str] = []
    events = list(events)
    hashes = [e["seed_hash"] for e in events if "seed_hash" in e]
    if not hashes:
        problems.append("the log holds no seed commitment")
    elif any(h != commitment(seed_hex) for h in hashes):
        problems.append("the seed does not match the commitment published at the start")
    seen: dict[int, int] = {}
    for event in events:
        for d in dice_in(event):
            index, value = int(d["index"]), d["value"]
            if index in seen:
                problems.append(f"die {index} appears twice")
                continue
            seen[index] = value
            expected = die(seed_hex, index)
            if value != expected:
                problems.append(f"die {index} shows {value}, the seed gives {expected}")
    if seen and sorted(seen) != list(range(len(seen))):
        problems.append("die indices are not 0, 1, 2, … without gaps")
    return Verdict(ok=not problems, dice_checked=len(seen), problems=tuple(problems))
