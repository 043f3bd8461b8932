"""Idempotency-Keys: the first answer under a key, success or refusal, is every retry's answer.

The first attempt claims the key with a short lease that this process renews while it works; a
retry waits for the answer, or takes the key over when the lease lapsed (the first attempt's server
died, or stalled). A change's answer is stored by the change's own commit (`Remember`), so the two
are stored both or neither.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, cast

import redis

from ..codec import dumps, loads
from . import keys, scripts
from .errors import Unavailable, redis_errors

IDEMPOTENCY_TTL = 24 * 3600
CLAIM_LEASE = 2.0
"""Seconds a claim on an Idempotency-Key lives unless its owner renews it: the longest a retry waits
for an attempt whose server died (then it takes the claim over)."""
CLAIM_WORK = 60.0
"""Seconds an attempt may keep renewing its claim; past that it is presumed stuck and let go."""
CLAIMED = b"claim:"


class ClaimLost(Exception):
    """This attempt's claim on an Idempotency-Key lapsed and a retry took it over; nothing was stored.

    The retry decides the action now: its answer is this attempt's answer too.
    """


@dataclass(frozen=True, slots=True)
class Claim:
    """An Idempotency-Key taken by one attempt: the key's record, and the mark that says whose it is.

    The record holds ``claim:<owner>`` for a short lease (CLAIM_LEASE) that the owner renews while it
    works (`GameStore.working`); a retry that finds the lease lapsed takes the key over.
    """

    name: str
    owner: str


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


class Answers:
    """The Idempotency-Keys of every game in one Redis, and the leases of this process's claims."""

    def __init__(self, client: redis.Redis, claim_lease: float = CLAIM_LEASE) -> None:
        self._client = client
        self.claim_lease = claim_lease
        self._answer = client.register_script(scripts.ANSWER)
        self._forget = client.register_script(scripts.FORGET)
        self._leases = Leases(client, client.register_script(scripts.RENEW), claim_lease)

    def remembered(self, code: str, token_hash: str, key: str, wait: float = 8.0) -> Any:
        """Claim an Idempotency-Key, or return the answer stored under it.

        A `Claim` means the caller is first (or takes over from an attempt whose lease lapsed) and
        must store its answer: with `GameStore.act(..., remember=...)` for a change, with `remember`
        for a refusal. A retry that arrives while the first attempt still works (its claim is
        renewed) waits for that answer; Unavailable when it does not come within `wait` seconds
        (a 503 the phone retries, sooner than its own 10 s patience runs out).
        """
        name = keys.idempotency(code, token_hash, key)
        deadline = time.monotonic() + wait
        delay = 0.005
        lease_ms = int(self.claim_lease * 1000)
        with redis_errors():
            while True:
                owner = "claim:" + secrets.token_hex(8)
                if self._client.set(name, owner, nx=True, px=lease_ms):
                    return Claim(name, owner)
                raw = cast(bytes | None, self._client.get(name))
                if raw and not raw.startswith(CLAIMED):
                    return loads(raw)
                if time.monotonic() > deadline:
                    raise Unavailable("the first request with this Idempotency-Key is still running")
                time.sleep(delay)
                delay = min(delay * 2, 0.1)

    @contextmanager
    def working(self, claim: Claim) -> Iterator[None]:
        """Keep `claim` alive (its lease renewed) for as long as the block runs."""
        self._leases.hold(claim)
        try:
            yield
        finally:
            self._leases.release(claim)

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
