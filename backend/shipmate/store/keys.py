"""The Redis key schema: every key of a game carries its code in a hash tag, so Redis Cluster
keeps a game's keys on one shard and a Lua script may touch them all."""

from __future__ import annotations


def version(code: str) -> str:
    """The game's current version (an integer as a string)."""
    return f"game:{{{code}}}:version"


def state(code: str) -> str:
    """The game's snapshot: its internal state as JSON, at `version`."""
    return f"game:{{{code}}}:state"


def events(code: str) -> str:
    """The append-only stream: one entry per version, id ``<version>-1``, field ``e`` = events,
    field ``c`` = the commit's random id (it recognises a commit sent twice)."""
    return f"game:{{{code}}}:events"


def tokens(code: str) -> str:
    """Hash of SHA-256(token) → role JSON (``{"player": "p1"}``, ``{"host": true}`` or ``{"dice": true}``)."""
    return f"game:{{{code}}}:tokens"


def handover(code: str, secret_hash: str) -> str:
    """A one-time hand-over of a seat: the player's id, kept until claimed or expired."""
    return f"game:{{{code}}}:handover:{secret_hash}"


def presence(code: str) -> str:
    """Sorted set of ``<server>|<player>`` → the time (ms, Redis's clock) until which the server
    holds an open socket of the player; a server refreshes its own members while they last."""
    return f"game:{{{code}}}:presence"


def seen(code: str) -> str:
    """Hash of player → when (ms, Redis's clock) they were last online."""
    return f"game:{{{code}}}:seen"


def online(code: str) -> str:
    """The players online as last announced (comma-separated), so only a change is announced."""
    return f"game:{{{code}}}:online"


def presence_clock(code: str) -> str:
    """The `now` (ms) of the game's last word on presence: each word's is later than the one before."""
    return f"game:{{{code}}}:presence-clock"


def idempotency(code: str, token_hash: str, key: str) -> str:
    """The first answer given under an Idempotency-Key, scoped to its token and game."""
    return f"game:{{{code}}}:idem:{token_hash}:{key}"


def channel(code: str) -> str:
    """The pub/sub channel on which every change of the game is announced."""
    return f"game:{{{code}}}:updates"


def listener(code: str, server: str) -> str:
    """A channel nobody publishes on: a server that follows the game subscribes it and the game's
    channel in one command (and drops both in one), so a script can count who else hears the game.
    '' for no server (one that follows no game, or a cluster's): then whoever listens counts."""
    return f"game:{{{code}}}:listener:{server}" if server else ""


def channel_code(name: str) -> str:
    """Return the game code of a channel name made by `channel`."""
    return name[name.index("{") + 1 : name.index("}")]


def rate(scope: str, who: str) -> str:
    """A fixed-window request counter for a client address (not tied to a game)."""
    return f"rate:{{{scope}}}:{who}"
