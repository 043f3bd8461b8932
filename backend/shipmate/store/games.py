"""The game store: one atomic, version-checked step appends a change and announces it.

A plain API over Redis: load a game, commit a change, store a refusal under its Idempotency-Key,
read the events since a version, look up or grant a token, count a request. It neither decides an
action (the rules do, in the game's room) nor hands a change to sockets (the room does: room/).
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
import threading
from typing import Any, cast

import redis

from ..codec import dumpb, dumps, loads
from ..rules import Event, State
from . import keys, scripts
from .errors import redis_errors
from .idempotency import IDEMPOTENCY_TTL, Answered

DEFAULT_IDLE_TTL = 30 * 24 * 3600
MAX_VERSION = 2**53


class Retired(Exception):
    """The acting token was retired by a seat's hand-over: its player now plays on another device."""

    def __init__(self, player: str) -> None:
        super().__init__(f"the seat of {player} moved to another device")
        self.player = player


class Conflict(Exception):
    """The game's version is not the one the client expected (or the code is taken)."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the game is at version {current}")
        self.current = current


def hash_token(token: str) -> str:
    """Return how a token is stored: its SHA-256, never the token itself."""
    return hashlib.sha256(token.encode()).hexdigest()


LANES = 8
"""Connections the store's own commands go over; each game's always over the same one."""

ROLE_CACHE_SIZE = 100_000
"""Host and dice-device roles remembered per process before the memory is cleared."""


class GameStore:
    """Games in Redis: snapshots, event streams, tokens, idempotency records, announcements.

    The host's and the dice device's roles never change, so they are remembered after their first
    lookup; a player's token is looked up every time, since a seat's hand-over retires it
    (store/seats.py), and the commit checks the acting token's role again in its own atomic step.

    The store's own commands (every action's commit, a refusal's version check, loads and lookups)
    go over `LANES` connections of the client's pool, each taken at its first command and kept; a
    game's commands always take the same one, and wait their turn on it. A pool checks the
    connection it hands out before every command, which under gevent costs a third of the command.
    A command holds its connection until its reply is read, which waits for its thread's next turn
    on the CPU: one connection for all would make a busy table's commands wait for another's.
    """

    def __init__(self, client: redis.Redis, idle_ttl: int = DEFAULT_IDLE_TTL, server: str = "") -> None:
        self.client = client
        # A server that follows its games (store/subscription.py) hands its own changes to its sockets
        # itself: its commits are published only for the others that hear the game. In a cluster
        # the subscribers sit on another node than the game's shard, where they cannot be counted.
        self.server = "" if isinstance(client, redis.RedisCluster) else server
        self.idle_ttl = idle_ttl
        self._commit_script = client.register_script(scripts.COMMIT_SCRIPT)
        self._refuse_script = client.register_script(scripts.REFUSE)
        self._grant = client.register_script(scripts.GRANT)
        self._roles: dict[tuple[str, str], dict[str, Any]] = {}
        cluster = isinstance(client, redis.RedisCluster)
        self._lanes: list[redis.Redis | None] = [client if cluster else None] * LANES
        self._lane_taken = threading.Lock()
        # Each commit's id (store/scripts.py) is this store's random prefix and a count: unique, and
        # cheaper than a random id per commit (a system call each).
        self._commit_prefix = secrets.token_hex(6)
        self._commit_count = itertools.count()

    def _commands(self, code: str) -> redis.Redis:
        """The client of a game's commands: its lane's one connection (a cluster's client routes each)."""
        lane = hash(code) % LANES
        client = self._lanes[lane]
        if client is None:
            with self._lane_taken:
                client = self._lanes[lane]
                if client is None:
                    # it connects at once: while Redis is away it raises, and the next command tries again
                    client = self._lanes[lane] = redis.Redis(connection_pool=self.client.connection_pool,
                                                             single_connection_client=True)
        return client

    def ping(self) -> bool:
        """Return whether Redis answers."""
        try:
            return bool(self.client.ping())
        except redis.RedisError:
            return False

    def close(self) -> None:
        """Close the store's connections."""
        for lane in self._lanes:
            if lane is not None and lane is not self.client:
                lane.close()
        self.client.close()

    def commit(self, code: str, expected: int, state: State, events: list[Event],
               token: tuple[str, dict[str, Any]] | None = None, answer: tuple[str, bytes] | None = None,
               acting: tuple[str, dict[str, Any]] | None = None) -> None:
        """Store a change decided on version `expected` and announce it, in one atomic step.

        `token` is a token (hash, role) stored in the same step (a join); `answer` the request's answer
        (its Idempotency-Key's record, JSON) stored with the change; `acting` the acting token (hash,
        role): the change is stored only while it still has that role.

        Raises Conflict when the game is no longer at `expected`, Answered when the key holds an
        answer already (nothing is stored), Retired when a seat's hand-over retired the acting token,
        Unavailable without Redis.
        """
        token_hash, role = token if token else ("", {})
        acting_hash, acting_role = acting if acting else ("", {})
        names = [keys.version(code), keys.state(code), keys.events(code), keys.tokens(code)]
        commit_id = f"{self._commit_prefix}{next(self._commit_count):x}"
        args = [expected, state["version"], dumpb(state), dumpb(events), keys.channel(code), self.idle_ttl,
                token_hash, dumps(role), commit_id, acting_hash, dumps(acting_role),
                keys.listener(code, self.server)]
        if answer is not None:
            names.append(answer[0])
            args += [answer[1], IDEMPOTENCY_TTL]
        with redis_errors():
            ok, current = self._commit_script(keys=names, args=args, client=self._commands(code))
        if ok == 4:
            raise Answered(current)
        if ok == 3:
            raise Retired(str(acting_role.get("player")))
        if not ok:
            raise Conflict(int(current))

    def create(self, code: str, state: State, event: Event, host_token_hash: str) -> None:
        """Store a new game at version 0 with its host token; Conflict when the code is taken."""
        self.commit(code, -1, state, [event], (host_token_hash, {"host": True}))

    def load(self, code: str) -> State | None:
        """Return the game's current internal state, or None for an unknown game."""
        with redis_errors():
            raw = cast(bytes | None, self._commands(code).get(keys.state(code)))
        if raw is None:
            return None
        state: State = loads(raw)
        return state

    def version(self, code: str) -> int | None:
        """Return the game's current version, or None for an unknown game."""
        with redis_errors():
            raw = self._commands(code).get(keys.version(code))
        return None if raw is None else int(cast(bytes, raw))

    def role(self, code: str, token_hash: str) -> dict[str, Any] | None:
        """Return what a token may do: ``{"player": id}``, ``{"host": True}`` or ``{"dice": True}``;
        ``{"moved": id}`` for a player's token retired by a hand-over of the seat."""
        known = self._roles.get((code, token_hash))
        if known is not None:
            return known
        with redis_errors():
            raw = self._commands(code).hget(keys.tokens(code), token_hash)
        if raw is None:
            return None
        role: dict[str, Any] = loads(cast(bytes, raw))
        if "player" not in role and "moved" not in role:
            if len(self._roles) >= ROLE_CACHE_SIZE:
                self._roles.clear()
            self._roles[(code, token_hash)] = role
        return role

    def roles(self, code: str, token_hashes: list[str]) -> list[dict[str, Any] | None]:
        """Return the role of each token, as `role` does, in one round trip."""
        with redis_errors():
            raw = self._commands(code).hmget(keys.tokens(code), token_hashes) if token_hashes else []
        return [None if found is None else loads(found) for found in raw]

    def grant(self, code: str, token_hash: str, role: dict[str, Any]) -> bool:
        """Give a new token `role` in a game without a change (a table device); False for no game."""
        with redis_errors():
            return bool(self._grant(keys=[keys.tokens(code)], args=[token_hash, dumps(role)]))

    def events_since(self, code: str, since: int, upto: int | None = None) -> list[Event]:
        """Return every event of the versions after `since` (up to version `upto`, when given), in order:
        with `upto` a state's version, the events that led to that state and none after it."""
        if since >= MAX_VERSION or (upto is not None and upto <= since):  # beyond any stream id there is
            return []
        start = f"{max(since + 1, 0)}-0"
        # a stream id's first part alone: every entry of that version
        end = "+" if upto is None or upto >= MAX_VERSION else str(upto)
        with redis_errors():
            entries = self._commands(code).xrange(keys.events(code), min=start, max=end)
        return [event for _, fields in entries or [] for event in loads((fields or {})[b"e"])]

    def refuse(self, code: str, name: str, answer: bytes, decided_on: int | None) -> bytes | None:
        """Store a refusal's `answer` under the Idempotency-Key's record `name`, in one step with the
        check that the game is still at the version the refusal was `decided_on` (None: a refusal of
        the request itself, which no change of the game alters).

        Returns the key's answer: this one, or the one it held already; None, storing nothing, when
        the game moved on since the refusal was decided (decide again).
        """
        decided = "" if decided_on is None else decided_on
        with redis_errors():
            found = self._refuse_script(keys=[keys.version(code), name],
                                        args=[decided, answer, IDEMPOTENCY_TTL], client=self._commands(code))
        if found[0] == 2:
            return None
        return answer if found[0] == 0 else cast(bytes, found[1])

    def hit(self, scope: str, who: str, window: int) -> int:
        """Count one request of `who` in the current fixed window and return the count so far."""
        name = keys.rate(scope, who)
        with redis_errors():
            pipe = self.client.pipeline(transaction=False)
            pipe.incr(name)
            pipe.expire(name, window, nx=True)
            count, _ = pipe.execute()
        return int(count)
