"""The game store: one atomic, version-checked step appends a change and announces it."""

from __future__ import annotations

import hashlib
import os
import secrets
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any, cast

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from ..codec import dumpb, dumps, loads
from ..rules import Action, Event, ShipmateError, State, Viewer, apply
from . import keys
from .errors import Unavailable, redis_errors
from .wire import Commands

DEFAULT_IDLE_TTL = 30 * 24 * 3600
IDEMPOTENCY_TTL = 24 * 3600
CLAIM_LEASE = 2.0
"""Seconds a claim on an Idempotency-Key lives unless its owner renews it: the longest a retry waits
for an attempt whose server died (then it takes the claim over)."""
CLAIM_WORK = 60.0
"""Seconds an attempt may keep renewing its claim; past that it is presumed stuck and let go."""
MAX_VERSION = 2**53

# KEYS: version, state, events, tokens, and the Idempotency-Key's record when the change answers one.
# ARGV: expected version (-1: the game must not exist), new version, state JSON, events JSON,
#       channel, idle TTL, token hash ('' for none), token role JSON, commit id,
#       the acting token's hash ('' for none) and the role it must still have,
#       and with the fifth key: the answer JSON, its TTL, and the claim the record must still hold.
# The published message {"version", "events", "state"} is spliced together here from the state and
# events already passed, so the largest value crosses the wire to Redis once, not twice.
# The commit id rides in the stream entry: when a reply is lost and the client library sends the
# same commit again, the script recognises its own entry and answers success instead of a conflict
# that would make `act` decide the action a second time.
# The answer under an Idempotency-Key is written in the same step as the change it answers, so a
# process that dies after the commit cannot leave a key whose retry would apply the change again.
# And the change is stored only while the key is still claimed by this attempt: one whose claim
# lapsed (it was too slow, or its server stalled) and was taken over by a retry stores nothing
# ({2, …}), so the first attempt and the retry can never both apply.
# And only while the acting token still has its role: a token retired by a seat's hand-over
# (store/seats.py) commits nothing ({3, …}), even on a socket opened before the hand-over.
COMMIT_SCRIPT = """
local current = tonumber(redis.call('GET', KEYS[1]) or '-1')
if current ~= tonumber(ARGV[1]) then
  local entry = redis.call('XRANGE', KEYS[3], ARGV[2] .. '-1', ARGV[2] .. '-1')[1]
  if entry and entry[2][3] == 'c' and entry[2][4] == ARGV[9] then
    return {1, tonumber(ARGV[2])}
  end
  return {0, current}
end
if ARGV[10] ~= '' and redis.call('HGET', KEYS[4], ARGV[10]) ~= ARGV[11] then
  return {3, current}
end
if KEYS[5] and redis.call('GET', KEYS[5]) ~= ARGV[14] then
  return {2, current}
end
local ttl = tonumber(ARGV[6])
redis.call('SET', KEYS[1], ARGV[2], 'EX', ttl)
redis.call('SET', KEYS[2], ARGV[3], 'EX', ttl)
redis.call('XADD', KEYS[3], ARGV[2] .. '-1', 'e', ARGV[4], 'c', ARGV[9])
redis.call('EXPIRE', KEYS[3], ttl)
if ARGV[7] ~= '' then
  redis.call('HSET', KEYS[4], ARGV[7], ARGV[8])
end
if redis.call('EXISTS', KEYS[4]) == 1 then
  redis.call('EXPIRE', KEYS[4], ttl)
end
if KEYS[5] then
  redis.call('SET', KEYS[5], ARGV[12], 'EX', tonumber(ARGV[13]))
end
redis.call('PUBLISH', ARGV[5],
  '{"version":' .. ARGV[2] .. ',"events":' .. ARGV[4] .. ',"state":' .. ARGV[3] .. '}')
return {1, tonumber(ARGV[2])}
"""


# The claims on an Idempotency-Key. KEYS: the key's record; ARGV[1]: the claim ("claim:<owner>").
# Each acts only while the record is still that claim, never on an answer (a commit whose reply was
# lost may have stored its answer already) nor on a claim that a retry took over.
# _RENEW: extend the lease by ARGV[2] ms. _ANSWER: store ARGV[2] for ARGV[3] seconds. _FORGET: delete.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_ANSWER = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
  return 1
end
return 0
"""
_FORGET = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
CLAIMED = b"claim:"


# KEYS: the game's tokens. ARGV: a token hash and its role JSON. Adds the token only to a game that
# exists (every game has its host's token); the hash keeps the game's own expiry.
_GRANT = """
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


class ClaimLost(Exception):
    """This attempt's claim on an Idempotency-Key lapsed and a retry took it over; nothing was stored.

    The retry decides the action now: its answer is this attempt's answer too.
    """


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


CLUSTER_SCHEME = "redis+cluster://"
"""A REDIS_URL that starts with this names one node of a Redis Cluster (``redis+cluster://host:port``)."""


def client_for(url: str, **options: Any) -> redis.Redis:
    """Return a client of the Redis at `url`: a cluster client for a ``redis+cluster://`` URL.

    Every key of a game carries its code in a hash tag, so the commit script touches one slot and
    runs on whichever shard holds the game; the cluster client routes each command there.
    """
    if url.startswith(CLUSTER_SCHEME):
        from redis.cluster import RedisCluster

        # The cluster client offers the same commands; the store types its client as redis.Redis.
        return cast(redis.Redis, RedisCluster.from_url(node_url(url), **options))
    return redis.Redis.from_url(url, **options)


def node_url(url: str) -> str:
    """Return a plain ``redis://`` URL of the node `url` names (a cluster's seed node).

    A subscriber needs only one node: Redis Cluster forwards every PUBLISH to every node.
    """
    return "redis://" + url.removeprefix(CLUSTER_SCHEME) if url.startswith(CLUSTER_SCHEME) else url


def connect(url: str) -> redis.Redis:
    """Open a client that fails fast when Redis is down (503, not a hung phone) and rides out blips."""
    return client_for(
        url,
        socket_connect_timeout=2,
        socket_timeout=10,
        health_check_interval=30,
        retry=Retry(ExponentialBackoff(cap=0.2, base=0.02), retries=2),
    )


@dataclass(frozen=True, slots=True)
class Change:
    """One applied change: the state after it, the events it produced, and its remembered answer."""

    state: State
    events: list[Event]
    answer: Any = None


@dataclass(frozen=True, slots=True)
class Claim:
    """An Idempotency-Key taken by one attempt: the key's record, and the mark that says whose it is.

    The record holds ``claim:<owner>`` for a short lease (CLAIM_LEASE) that the owner renews while it
    works (`GameStore.working`); a retry that finds the lease lapsed takes the key over.
    """

    name: str
    owner: str


@dataclass(frozen=True, slots=True)
class Remember:
    """A claimed Idempotency-Key whose answer the change's own commit stores.

    `answer` makes the answer (any JSON value) from the change before the commit; the commit writes
    it under the key in the same atomic step, so the change and its answer are stored both or neither,
    and only while the key is still this attempt's claim.
    """

    claim: Claim
    answer: Callable[[Change], Any]


class Leases:
    """The claims this process works on, renewed by one thread every third of a lease.

    Renewing is one script per claim, pipelined; a claim whose record is no longer its own (answered,
    forgotten, taken over) simply stops being renewed, and none is renewed past CLAIM_WORK.
    """

    def __init__(self, client: redis.Redis, renew: Any, lease: float) -> None:
        self._client = client
        self._renew = renew
        self._lease = lease
        self._held: dict[Claim, float] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._pid = 0

    def hold(self, claim: Claim) -> None:
        """Keep `claim` alive until `release`."""
        with self._lock:
            self._held[claim] = time.monotonic() + CLAIM_WORK
            if self._thread is None or self._pid != os.getpid():  # the first claim, or a forked child
                self._pid = os.getpid()
                self._thread = threading.Thread(target=self._run, name="shipmate-leases", daemon=True)
                self._thread.start()

    def release(self, claim: Claim) -> None:
        """Stop renewing `claim`."""
        with self._lock:
            self._held.pop(claim, None)

    def _run(self) -> None:
        lease_ms = int(self._lease * 1000)
        while True:
            time.sleep(self._lease / 3)
            now = time.monotonic()
            with self._lock:
                for claim in [c for c, until in self._held.items() if until < now]:
                    del self._held[claim]
                held = list(self._held)
            if not held:
                continue
            try:
                pipe = self._client.pipeline(transaction=False)
                for claim in held:
                    self._renew(keys=[claim.name], args=[claim.owner, lease_ms], client=pipe)
                renewed = pipe.execute()
            except redis.RedisError:  # Redis is away: the claims may lapse, and a retry decides then
                continue
            with self._lock:
                for claim, kept in zip(held, renewed, strict=True):
                    if not kept:
                        self._held.pop(claim, None)


class _Working:
    """`GameStore.working`: a claim held by the process's lease keeper for the block's length."""

    def __init__(self, leases: Leases, claim: Claim) -> None:
        self._leases = leases
        self._claim = claim

    def __enter__(self) -> None:
        self._leases.hold(self._claim)

    def __exit__(self, *_: object) -> None:
        self._leases.release(self._claim)


ROLE_CACHE_SIZE = 100_000
"""Host and dice-device roles remembered per process before the memory is cleared."""


class GameStore:
    """Games in Redis: snapshots, event streams, tokens, idempotency records, announcements.

    Two process-local memories save round trips without ever deciding on stale data. The host's
    and the dice device's roles never change, so they are remembered after their first lookup; a
    player's token is looked up every time, since a seat's hand-over retires it (store/seats.py),
    and the commit checks the acting token's role again in its own atomic step. The newest
    state of each *followed* game (one with sockets in this process, whose changes the hub
    receives) is remembered from the published changes, so an action on it costs one round trip,
    the commit: the commit checks the version, and a state that turns out to be stale is simply
    loaded and decided again.
    """

    def __init__(self, client: redis.Redis, idle_ttl: int = DEFAULT_IDLE_TTL,
                 claim_lease: float = CLAIM_LEASE) -> None:
        self.client = client
        self.idle_ttl = idle_ttl
        self.claim_lease = claim_lease
        self._commit = client.register_script(COMMIT_SCRIPT)
        self._answer = client.register_script(_ANSWER)
        self._forget = client.register_script(_FORGET)
        self._grant = client.register_script(_GRANT)
        self._leases = Leases(client, client.register_script(_RENEW), claim_lease)
        # A cluster client routes each command to its shard itself; a plain Redis takes the lean path.
        self._commands = None if isinstance(client, redis.RedisCluster) else Commands(client)
        self._roles: dict[tuple[str, str], dict[str, Any]] = {}
        self._followed: dict[str, State | None] = {}
        self._followed_lock = threading.Lock()
        self.on_commit: Callable[[str, State, list[Event]], None] | None = None
        """Called with (code, state, events) after each change `act` commits (the hub's local fan-out)."""
        self.committing: Callable[[str], AbstractContextManager[None]] | None = None
        """Entered for the whole of each `act` on a game (the hub holds back that game's publishes)."""

    def follow(self, code: str) -> None:
        """Start remembering the newest state of a game whose changes this process receives."""
        with self._followed_lock:
            self._followed.setdefault(code, None)

    def unfollow(self, code: str) -> None:
        """Forget a game that no longer has sockets here."""
        with self._followed_lock:
            self._followed.pop(code, None)

    def saw(self, code: str, state: State) -> None:
        """Remember `state` (parsed from Redis) if its game is followed and it is newer."""
        with self._followed_lock:
            if code in self._followed:
                known = self._followed[code]
                if known is None or state["version"] > known["version"]:
                    self._followed[code] = state

    def _remembered_state(self, code: str) -> State | None:
        with self._followed_lock:
            return self._followed.get(code)

    def ping(self) -> bool:
        """Return whether Redis answers."""
        try:
            return bool(self.client.ping())
        except redis.RedisError:
            return False

    def _write(
        self,
        code: str,
        expected: int,
        state: State,
        events: list[Event],
        token: tuple[str, dict[str, Any]] | None,
        answer: tuple[Claim, Any] | None = None,
        acting: tuple[str, dict[str, Any]] | None = None,
    ) -> None:
        version = state["version"]
        token_hash, role = token if token else ("", {})
        acting_hash, acting_role = acting if acting else ("", {})
        names = [keys.version(code), keys.state(code), keys.events(code), keys.tokens(code)]
        args = [expected, version, dumpb(state), dumpb(events), keys.channel(code), self.idle_ttl,
                token_hash, dumps(role), secrets.token_hex(8), acting_hash, dumps(acting_role)]
        if answer is not None:
            claim, body = answer
            names.append(claim.name)
            args += [dumpb(body), IDEMPOTENCY_TTL, claim.owner]
        with redis_errors():
            ok, current = self._run_commit(names, args)
        if ok == 2:
            raise ClaimLost()
        if ok == 3:
            raise Retired(str(acting_role.get("player")))
        if not ok:
            raise Conflict(int(current))

    def _run_commit(self, names: list[str], args: list[Any]) -> Any:
        if self._commands is None:
            return self._commit(keys=names, args=args)
        try:
            return self._commands("EVALSHA", self._commit.sha, len(names), *names, *args)
        except redis.exceptions.NoScriptError:  # a restarted Redis without its scripts: load it again
            self._commit.sha = self.client.script_load(COMMIT_SCRIPT)
            return self._commands("EVALSHA", self._commit.sha, len(names), *names, *args)

    def _get(self, name: str) -> bytes | None:
        if self._commands is None:
            return cast(bytes | None, self.client.get(name))
        return cast(bytes | None, self._commands("GET", name))

    def close(self) -> None:
        """Close the store's connections."""
        if self._commands is not None:
            self._commands.close()
        self.client.close()

    def create(self, code: str, state: State, event: Event, host_token_hash: str) -> None:
        """Store a new game at version 0 with its host token; Conflict when the code is taken."""
        self._write(code, -1, state, [event], (host_token_hash, {"host": True}))

    def load(self, code: str) -> State | None:
        """Return the game's current internal state, or None for an unknown game."""
        with redis_errors():
            raw = self._get(keys.state(code))
        if raw is None:
            return None
        state: State = loads(raw)
        self.saw(code, state)
        return state

    def version(self, code: str) -> int | None:
        """Return the game's current version, or None for an unknown game."""
        with redis_errors():
            raw = self._get(keys.version(code))
        return None if raw is None else int(raw)

    def role(self, code: str, token_hash: str) -> dict[str, Any] | None:
        """Return what a token may do: ``{"player": id}``, ``{"host": True}`` or ``{"dice": True}``;
        ``{"moved": id}`` for a player's token retired by a hand-over of the seat."""
        known = self._roles.get((code, token_hash))
        if known is not None:
            return known
        with redis_errors():
            raw = self.client.hget(keys.tokens(code), token_hash)
        if raw is None:
            return None
        role: dict[str, Any] = loads(raw)
        if "player" not in role and "moved" not in role:
            if len(self._roles) >= ROLE_CACHE_SIZE:
                self._roles.clear()
            self._roles[(code, token_hash)] = role
        return role

    def roles(self, code: str, token_hashes: list[str]) -> list[dict[str, Any] | None]:
        """Return the role of each token, as `role` does, in one round trip."""
        with redis_errors():
            raw = self.client.hmget(keys.tokens(code), token_hashes) if token_hashes else []
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
            entries = self.client.xrange(keys.events(code), min=start, max="+")
        return [event for _, fields in entries or [] for event in loads((fields or {})[b"e"])]

    def act(
        self,
        code: str,
        action: Action,
        actor: Viewer,
        *,
        expected_version: int | None = None,
        new_token: Callable[[list[Event]], tuple[str, dict[str, Any]] | None] | None = None,
        remember: Remember | None = None,
        acting: tuple[str, dict[str, Any]] | None = None,
    ) -> Change:
        """Decide `action` on the freshest state and commit it atomically, retrying on a race.

        Raises the rules' ShipmateError when the action is refused, Conflict when
        `expected_version` is stale, KeyError for an unknown game, Unavailable without Redis,
        ClaimLost when `remember`'s claim was taken over by a retry (nothing was stored).
        `new_token` may return a token (hash, role) to store in the same step (a join); `remember`
        stores the change's answer under its Idempotency-Key in the same step too. `acting` is the
        acting token (hash, role): the change is stored only while it still has that role, else
        Retired (a seat's hand-over retired it).
        """
        with self.committing(code) if self.committing is not None else nullcontext():
            return self._act(code, action, actor, expected_version, new_token, remember, acting)

    def _act(
        self,
        code: str,
        action: Action,
        actor: Viewer,
        expected_version: int | None,
        new_token: Callable[[list[Event]], tuple[str, dict[str, Any]] | None] | None,
        remember: Remember | None,
        acting: tuple[str, dict[str, Any]] | None,
    ) -> Change:
        state = self._remembered_state(code)
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
                # A remembered state may lag behind: refuse only when it is still the current one
                # (a refusal depends on the state alone, so its version is enough to tell).
                if fresh or self.version(code) == state["version"]:
                    raise
                state = None
                continue
            token = new_token(events) if new_token else None
            change = Change(new_state, events)
            answer = None
            if remember is not None:
                change = Change(new_state, events, remember.answer(change))
                answer = (remember.claim, change.answer)
            try:
                self._write(code, state["version"], new_state, events, token, answer, acting)
            except Conflict:
                # Decided on a stale state: forget it, load the current one and decide again.
                with self._followed_lock:
                    if code in self._followed:
                        self._followed[code] = None
                state = None
                continue
            self.saw(code, new_state)
            if self.on_commit is not None:
                self.on_commit(code, new_state, events)
            return change

    def remembered(self, code: str, token_hash: str, key: str, wait: float = 15.0) -> Any:
        """Claim an Idempotency-Key, or return the answer stored under it.

        A `Claim` means the caller is first (or takes over from an attempt whose lease lapsed) and
        must store its answer: with `act(..., remember=...)` for a change, with `remember` for a
        refusal. A retry that arrives while the first attempt still works (its claim is renewed)
        waits for that answer; Unavailable when it does not come within `wait` seconds.
        """
        name = keys.idempotency(code, token_hash, key)
        deadline = time.monotonic() + wait
        delay = 0.005
        lease_ms = int(self.claim_lease * 1000)
        with redis_errors():
            while True:
                owner = "claim:" + secrets.token_hex(8)
                if self.client.set(name, owner, nx=True, px=lease_ms):
                    return Claim(name, owner)
                raw = cast(bytes | None, self.client.get(name))
                if raw and not raw.startswith(CLAIMED):
                    return loads(raw)
                if time.monotonic() > deadline:
                    raise Unavailable("the first request with this Idempotency-Key is still running")
                time.sleep(delay)
                delay = min(delay * 2, 0.1)

    def working(self, claim: Claim) -> _Working:
        """Keep `claim` alive (its lease renewed) for as long as the block runs."""
        return _Working(self._leases, claim)

    def remember(self, claim: Claim, answer: Any) -> bool:
        """Store a refusal's answer under its claimed key for 24 hours; False if the claim was lost."""
        with redis_errors():
            return bool(self._answer(keys=[claim.name], args=[claim.owner, dumps(answer), IDEMPOTENCY_TTL]))

    def forget(self, claim: Claim) -> None:
        """Release a claim whose request failed before it had an answer (Redis down).

        A key that holds an answer is kept: the commit may have stored it before its reply was lost.
        """
        with redis_errors():
            self._forget(keys=[claim.name], args=[claim.owner])

    def hit(self, scope: str, who: str, window: int) -> int:
        """Count one request of `who` in the current fixed window and return the count so far."""
        name = keys.rate(scope, who)
        with redis_errors():
            pipe = self.client.pipeline(transaction=False)
            pipe.incr(name)
            pipe.expire(name, window, nx=True)
            count, _ = pipe.execute()
        return int(count)
