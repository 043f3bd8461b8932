"""The one JSON codec of every stored value, API answer and socket message."""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumpb(value: Any) -> bytes:
    """Serialise compactly to UTF-8, the one way every stored value and every socket message is written.

    orjson is several times faster than the standard library on states and views. What orjson
    refuses (a key that is not a string, an integer beyond 64 bits) falls back to the standard
    library's identical form; orjson's own option for such keys would halve its speed on
    everything else.
    """
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def dumpb_kept(value: Any) -> bytes:
    """`dumpb` for JSON that stays in memory (the parts of an update that every socket of a game
    shares): orjson hands back its whole working buffer, at least 4 kB however short the JSON, so
    what is kept is copied to its own length."""
    return bytes(memoryview(dumpb(value)))


def dumps(value: Any) -> str:
    """`dumpb` as text."""
    return dumpb(value).decode()


def loads(text: str | bytes) -> Any:
    """Parse JSON that `dumps` wrote (or any JSON); ValueError when it is malformed."""
    return orjson.loads(text)
