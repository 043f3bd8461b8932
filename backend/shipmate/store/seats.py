"""Seats that move between devices: a one-time hand-over link, and the tokens its claim retires.

A phone dies, a battery runs out, a player borrows a phone: the host (or the player) asks for a
hand-over, a secret that works once, for HANDOVER_TTL seconds. The device that claims it becomes
that player, and in the same atomic step every earlier token of the player is retired: its role
becomes ``{"moved": player}``, so it answers 401 (a lost phone cannot act), and the game's channel
announces which tokens were retired so that every server closes their sockets.
"""

from __future__ import annotations

import hashlib
from typing import Any

import redis

from . import keys
from .errors import redis_errors

HANDOVER_TTL = 600
"""Seconds a hand-over link works (once)."""


# KEYS: the game's tokens, the hand-over's record. ARGV: the new token's hash, the channel.
# The record holds the player's id; it is deleted by its first claim, so two devices that open the
# same link at once cannot both get the seat. Every token whose role is that player's is retired,
# the new one is granted, and the retired hashes are announced: '{"seat":"p2","revoked":[…]}'.
_CLAIM = """
local player = redis.call('GET', KEYS[2])
if not player then
  return {0}
end
redis.call('DEL', KEYS[2])
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {0}
end
local role = '{"player":"' .. player .. '"}'
local moved = '{"moved":"' .. player .. '"}'
local tokens = redis.call('HGETALL', KEYS[1])
local revoked = {}
for i = 1, #tokens, 2 do
  if tokens[i + 1] == role then
    redis.call('HSET', KEYS[1], tokens[i], moved)
    revoked[#revoked + 1] = '"' .. tokens[i] .. '"'
  end
end
redis.call('HSET', KEYS[1], ARGV[1], role)
redis.call('PUBLISH', ARGV[2], '{"seat":"' .. player .. '","revoked":[' .. table.concat(revoked, ',') .. ']}')
return {1, player}
"""


def secret_hash(secret: str) -> str:
    """Return how a hand-over secret is stored: its SHA-256, never the secret itself."""
    return hashlib.sha256(secret.encode()).hexdigest()


class Seats:
    """The hand-overs of every game in one Redis."""

    def __init__(self, client: redis.Redis) -> None:
        self._client = client
        self._claim = client.register_script(_CLAIM)

    def offer(self, code: str, player: str, secret: str, ttl: int = HANDOVER_TTL) -> None:
        """Store a hand-over of `player`'s seat under `secret` for `ttl` seconds."""
        with redis_errors():
            self._client.set(keys.handover(code, secret_hash(secret)), player, ex=ttl)

    def claim(self, code: str, secret: str, token_hash: str) -> str | None:
        """Give the seat of a hand-over to a new token; return the player's id, None for a used,
        expired or unknown secret. Every earlier token of that player is retired in the same step."""
        with redis_errors():
            found: Any = self._claim(keys=[keys.tokens(code), keys.handover(code, secret_hash(secret))],
                                     args=[token_hash, keys.channel(code)])
        if not found[0]:
            return None
        player: bytes = found[1]
        return player.decode()
