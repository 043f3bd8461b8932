"""The game store: one atomic, version-checked step appends a change and announces it.

A plain API over Redis: load a game, commit a change, read the events since a version, look up a
token. It knows nothing of sockets: whoever commits a change hands it on (web/rooms.py).
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import redis

from ..codec import dumpb, dumps, loads
from ..rules import Action, Event, ShipmateError, State, Viewer, apply
from . import keys, scripts
from .errors import redis_errors
from .idempotency import CLAIM_LEASE, IDEMPOTENCY_TTL, Answers, Claim, ClaimLost

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


@dataclass(frozen=True, slots=True)
class Change:
    """One applied change: the state after it, the events it produced, and its remembered answer."""

    state: State
    events: list[Event]
    answer: Any = None


@dataclass(frozen=True, slots=True)
class Remember:
    """A claimed Idempotency-Key whose answer the change's own commit stores.

    `answer` makes the answer (any JSON value) from the change before the commit; the commit writes
    it under the key in the same atomic step, so the change and its answer are stored both or neither,
    and only while the key is still this attempt's claim.
    """

    claim: Claim
    answer: Callable[[Change], Any]


NewToken = Callable[[list[Event]], "tuple[str, dict[str, Any]] | None"]
"""Given a change's events, the token (hash, role) to store in the same step, if any (a join)."""

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

    def __init__(self, client: redis.Redis, idle_ttl: int = DEFAULT_IDLE_TTL,
                 claim_lease: float = CLAIM_LEASE, server: str = "") -> None:
        self.client = client
        # A server that follows its games (web/subscription.py) hands its own changes to its sockets
        # itself: its commits are published only for the others that hear the game. In a cluster
        # the subscribers sit on another node than the game's shard, where they cannot be counted.
        self.server = "" if isinstance(client, redis.RedisCluster) else server
        self.idle_ttl = idle_ttl
        self.answers = Answers(client, claim_lease)
        self._commit = client.register_script(scripts.COMMIT_SCRIPT)
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

    def _write(self, code: str, expected: int, state: State, events: list[Event],
               token: tuple[str, dict[str, Any]] | None, answer: tuple[Claim, Any] | None = None,
               acting: tuple[str, dict[str, Any]] | None = None) -> None:
        token_hash, role = token if token else ("", {})
        acting_hash, acting_role = acting if acting else ("", {})
        names = [keys.version(code), keys.state(code), keys.events(code), keys.tokens(code)]
        commit_id = f"{self._commit_prefix}{next(self._commit_count):x}"
        args = [expected, state["version"], dumpb(state), dumpb(events), keys.channel(code), self.idle_ttl,
                token_hash, dumps(role), commit_id, acting_hash, dumps(acting_role),
                keys.listener(code, self.server)]
        if answer is not None:
            claim, body = answer
            names.append(claim.name)
            args += [dumpb(body), IDEMPOTENCY_TTL, claim.owner]
        with redis_errors():
            ok, current = self._commit(keys=names, args=args, client=self._commands(code))
        if ok == 2:
            raise ClaimLost()
        if ok == 3:
            raise Retired(str(acting_role.get("player")))
        if not ok:
            raise Conflict(int(current))

    def create(self, code: str, state: State, event: Event, host_token_hash: str) -> None:
        """Store a new game at version 0 with its host token; Conflict when the code is taken."""
        self._write(code, -1, state, [event], (host_token_hash, {"host": True}))

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

    def events_since(self, code: str, since: int) -> list[Event]:
        """Return every event of the versions after `since`, in order."""
        if since >= MAX_VERSION:  # beyond any stream id Redis accepts, and any version there is
            return []
        start = f"{max(since + 1, 0)}-0"
        with redis_errors():
            entries = self._commands(code).xrange(keys.events(code), min=start, max="+")
        return [event for _, fields in entries or [] for event in loads((fields or {})[b"e"])]

    def act(self, code: str, action: Action, actor: Viewer, *, known: State | None = None,
            expected_version: int | None = None, new_token: NewToken | None = None,
            remember: Remember | None = None, acting: tuple[str, dict[str, Any]] | None = None) -> Change:
        """Decide `action` on the freshest state and commit it atomically, retrying on a race.

        `known` is the newest state the caller knows (a room's): deciding on it spares a load, and
        the commit's version check catches one that turned out stale, which is then loaded and
        decided again. `new_token` may return a token (hash, role) to store in the same step (a
        join); `remember` stores the change's answer under its Idempotency-Key in the same step;
        `acting` is the acting token (hash, role), and the change is stored only while it still has
        that role.

        Raises the rules' ShipmateError when the action is refused, Conflict when
        `expected_version` is stale, KeyError for an unknown game, Unavailable without Redis,
        ClaimLost when `remember`'s claim was taken over by a retry (nothing was stored), Retired
        when a seat's hand-over retired the acting token.
        """
        state = known
        while True:
            fresh = state is None or (expected_version is not None and expected_version != state["version"])
            if fresh:
                state = self.load(code)
            if state is None:
                raise KeyError(code)
            if expected_version is not None and expected_version != state["version"]:
                raise Conflict(state["version"])
            try:
                new_state, events = apply(state, action, actor)
            except ShipmateError:
                # A known state may lag behind: refuse only when it is still the current one
                # (a refusal depends on the state alone, so its version is enough to tell).
                if fresh or self.version(code) == state["version"]:
                    raise
                state = None
                continue
            change = Change(new_state, events)
            answer = None
            if remember is not None:
                change = Change(new_state, events, remember.answer(change))
                answer = (remember.claim, change.answer)
            token = new_token(events) if new_token else None
            try:
                self._write(code, state["version"], new_state, events, token, answer, acting)
            except Conflict:  # decided on a stale state: load the current one and decide again
                state = None
                continue
            return change

    def hit(self, scope: str, who: str, window: int) -> int:
        """Count one request of `who` in the current fixed window and return the count so far."""
        name = keys.rate(scope, who)
        with redis_errors():
            pipe = self.client.pipeline(transaction=False)
            pipe.incr(name)
            pipe.expire(name, window, nx=True)
            count, _ = pipe.execute()
        return int(count)
