"""The store's Lua scripts: each runs whole, in one atomic step, on the shard that holds its game."""

# Whether a server other than this one hears a game's channel, given this server's listener channel
# of the game ('' for none: then whoever listens counts). A server follows a game on the game's
# channel and its listener channel together, always in one SUBSCRIBE and one UNSUBSCRIBE
# (web/subscription.py), so the channel's subscribers less the listener's are the others, counted
# exactly within the script's atomic step. What this server says it hands to its own sockets itself.
HEARD_BY_OTHERS = """
local function heard_by_others(channel, listener)
  if listener == '' then
    return true
  end
  local heard = redis.call('PUBSUB', 'NUMSUB', channel, listener)
  return heard[2] > heard[4]
end
"""

# KEYS: version, state, events, tokens, and the Idempotency-Key's record when the change answers one.
# ARGV: expected version (-1: the game must not exist), new version, state JSON, events JSON,
#       channel, idle TTL, token hash ('' for none), token role JSON, commit id,
#       the acting token's hash ('' for none) and the role it must still have,
#       the committing server's listener channel ('' to publish whoever listens),
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
# The change is published only when a server other than the committing one hears the game's
# channel (HEARD_BY_OTHERS). A server that subscribes after the count loads the state after its
# subscription, and finds the change there.
# And only while the acting token still has its role: a token retired by a seat's hand-over
# (store/seats.py) commits nothing ({3, …}), even on a socket opened before the hand-over.
COMMIT_SCRIPT = HEARD_BY_OTHERS + """
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
if KEYS[5] and redis.call('GET', KEYS[5]) ~= ARGV[15] then
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
redis.call('EXPIRE', KEYS[4], ttl)
if KEYS[5] then
  redis.call('SET', KEYS[5], ARGV[13], 'EX', tonumber(ARGV[14]))
end
if heard_by_others(ARGV[5], ARGV[12]) then
  redis.call('PUBLISH', ARGV[5],
    '{"version":' .. ARGV[2] .. ',"events":' .. ARGV[4] .. ',"state":' .. ARGV[3] .. '}')
end
return {1, tonumber(ARGV[2])}
"""


# The claims on an Idempotency-Key. KEYS: the key's record; ARGV[1]: the claim ("claim:<owner>").
# Each acts only while the record is still that claim, never on an answer (a commit whose reply was
# lost may have stored its answer already) nor on a claim that a retry took over.
# RENEW: extend the lease by ARGV[2] ms. ANSWER: store ARGV[2] for ARGV[3] seconds. FORGET: delete.
RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
ANSWER = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
  return 1
end
return 0
"""
FORGET = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


# KEYS: the game's tokens. ARGV: a token hash and its role JSON. Adds the token only to a game that
# exists (every game has its host's token); the hash keeps the game's own expiry.
GRANT = """
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""
