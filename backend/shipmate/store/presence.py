"""Who is at the table: the players with an open socket on any server of the game.

Presence is not a change of the game: it raises no version and enters no event. Each server keeps,
per game, the members ``<server>|<player>`` of a sorted set whose scores say until when (Redis's
clock, ms) it holds an open socket of that player; it refreshes them while the sockets last. When
the player's last socket here closes, their member lasts one grace more: a reload, a page change or
a look at the rulebook opens a socket again within it, and the table hears nothing. A member whose
time is up, after the grace or after one lease of a server that stopped without saying so, is swept
by whichever server says its word on the game next (room/rooms.py says it again once a grace is up);
the player's last-seen time stays the moment their last socket closed (or their server last spoke).
When the set of players online changes, the same step announces it on the game's channel
(``{"presence": {"now", "online", "seen"}}``), so every server of the game, on one Redis or a
Redis Cluster, tells its sockets the same thing. As a commit is (store/scripts.py), it is announced
only when a server other than the one that says it follows the game: that one takes the word from
the step's answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import redis

from ..codec import loads
from . import keys
from .errors import redis_errors
from .scripts import HEARD_BY_OTHERS

PRESENCE_LEASE = 60.0
"""Seconds a server's word that a player is here lasts unless it is renewed."""

# KEYS: the game's presence set, its last-seen hash, its last announced players online, the `now`
# of its last word. ARGV: this server's id, the lease (ms), the channel, the keys' TTL (s), this
# server's listener channel of the game ('' to announce whoever listens), the grace (ms), then the
# players with an open socket here. Returns {changed (0/1), now (ms), online players…, '', seen:
# player, ms, …}. Each word's `now` is later than the one before, even within one millisecond of
# Redis's clock: a server keeps the word with the latest `now`, so two words of one millisecond
# must not tie (the second, and what it says, would be dropped).
_UPDATE = HEARD_BY_OTHERS + """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
now = math.max(now, tonumber(redis.call('GET', KEYS[4]) or '0') + 1)
redis.call('SET', KEYS[4], now, 'EX', tonumber(ARGV[4]))
local server, lease, grace = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[6])
local here = {}
for i = 7, #ARGV do
  here[ARGV[i]] = true
end
local members = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local online, listed = {}, {}
for i = 1, #members, 2 do
  local member, lasts = members[i], tonumber(members[i + 1])
  local bar = string.find(member, '|', 1, true)
  local owner, player = string.sub(member, 1, bar - 1), string.sub(member, bar + 1)
  local mine = owner == server
  if mine and not here[player] and lasts > now + grace then
    -- the player's last socket here just closed: they stay for the grace, last seen now
    lasts = now + grace
    redis.call('ZADD', KEYS[1], lasts, member)
    redis.call('HSET', KEYS[2], player, now)
  end
  if not (mine and here[player]) then  -- those are renewed below
    if lasts <= now then
      redis.call('ZREM', KEYS[1], member)
      if redis.call('HEXISTS', KEYS[2], player) == 0 then
        redis.call('HSET', KEYS[2], player, math.min(now, lasts - lease))
      end
    elseif not listed[player] then
      listed[player] = true
      online[#online + 1] = player
    end
  end
end
for player in pairs(here) do
  redis.call('ZADD', KEYS[1], now + lease, server .. '|' .. player)
  redis.call('HSET', KEYS[2], player, now)
  if not listed[player] then
    listed[player] = true
    online[#online + 1] = player
  end
end
table.sort(online)
local ttl = tonumber(ARGV[4])
for i = 1, 2 do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    redis.call('EXPIRE', KEYS[i], ttl)
  end
end
local seen = redis.call('HGETALL', KEYS[2])
local said = table.concat(online, ',')
local changed = 0
if redis.call('GET', KEYS[3]) ~= said then
  changed = 1
  redis.call('SET', KEYS[3], said, 'EX', ttl)
  local quoted, pairs_ = {}, {}
  for i = 1, #online do
    quoted[i] = '"' .. online[i] .. '"'
  end
  for i = 1, #seen, 2 do
    pairs_[#pairs_ + 1] = '"' .. seen[i] .. '":' .. seen[i + 1]
  end
  if heard_by_others(ARGV[3], ARGV[5]) then
    redis.call('PUBLISH', ARGV[3], '{"presence":{"now":' .. now .. ',"online":[' .. table.concat(quoted, ',')
      .. '],"seen":{' .. table.concat(pairs_, ',') .. '}}}')
  end
end
local reply = {changed, now}
for i = 1, #online do
  reply[#reply + 1] = online[i]
end
reply[#reply + 1] = ''
for i = 1, #seen do
  reply[#reply + 1] = seen[i]
end
return reply
"""


@dataclass(frozen=True, slots=True)
class Seen:
    """Who is online in a game at `now` (ms, Redis's clock), and when each player was last online."""

    now: int
    online: tuple[str, ...]
    seen: Mapping[str, int]

    @classmethod
    def announced(cls, data: bytes) -> Seen:
        """Return what a ``{"presence": …}`` message on a game's channel says."""
        said = loads(data)["presence"]
        return cls(int(said["now"]), tuple(said["online"]), {p: int(ms) for p, ms in said["seen"].items()})

    def away(self, players: Iterable[str], later_ms: float = 0) -> dict[str, int | None]:
        """Return each of `players` who is not online with the seconds since they were, `later_ms`
        after `now` (None for one never seen online)."""
        return {player: (None if player not in self.seen
                         else max(0, int(self.now + later_ms - self.seen[player]) // 1000))
                for player in players if player not in self.online}


def _seen_of(reply: list[Any]) -> tuple[bool, Seen]:
    now = int(reply[1])
    words = [item.decode() if isinstance(item, bytes) else str(item) for item in reply[2:]]
    split = words.index("")
    online, flat = words[:split], words[split + 1:]
    seen = {flat[i]: int(flat[i + 1]) for i in range(0, len(flat), 2)}
    return bool(reply[0]), Seen(now, tuple(online), seen)


class Presence:
    """Every game's presence in one Redis, as this server (`server`) holds its sockets."""

    def __init__(self, client: redis.Redis, server: str, ttl: int, lease: float = PRESENCE_LEASE,
                 grace: float = 0.0) -> None:
        self._client = client
        self._update = client.register_script(_UPDATE)
        self.server = server
        # Its listener channels, as the store's commits count them (in a cluster every word is announced).
        self._listener = "" if isinstance(client, redis.RedisCluster) else server
        self._ttl = ttl
        self._lease_ms = int(lease * 1000)
        self.grace = grace
        """Seconds a player whose last socket here closed stays online (room/rooms.py asks again then)."""

    def _args(self, code: str, here: Iterable[str]) -> dict[str, Any]:
        return {"keys": [keys.presence(code), keys.seen(code), keys.online(code), keys.presence_clock(code)],
                "args": [self.server, self._lease_ms, keys.channel(code), self._ttl,
                         keys.listener(code, self._listener), int(self.grace * 1000), *sorted(set(here))]}

    def update(self, code: str, here: Iterable[str]) -> tuple[bool, Seen]:
        """Say which players have a socket on this server now; return (whether the players online
        changed, which was then announced) and what is known of the game's presence."""
        with redis_errors():
            return _seen_of(self._update(**self._args(code, here)))

    def refresh(self, games: Mapping[str, Iterable[str]]) -> dict[str, tuple[bool, Seen]]:
        """`update` every game of `games` (code → the players here), in one round trip on one Redis.

        A cluster client cannot pipeline scripts (each game's keys may sit on another shard), so
        there each game is updated on its own.
        """
        if not games:
            return {}
        if isinstance(self._client, redis.RedisCluster):
            return {code: self.update(code, here) for code, here in games.items()}
        with redis_errors():
            pipe = self._client.pipeline(transaction=False)
            for code, here in games.items():
                self._update(**self._args(code, here), client=pipe)
            replies = pipe.execute()
        return {code: _seen_of(reply) for code, reply in zip(games, replies, strict=True)}
