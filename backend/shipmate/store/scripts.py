"""The store's Lua scripts: each runs whole, in one atomic step, on the shard that holds its game."""

# Whether a server other than this one hears a game's channel, given this server's listener channel
# of the game ('' for none: then whoever listens counts). A server follows a game on the game's
# channel and its listener channel together, always in one SUBSCRIBE and one UNSUBSCRIBE
# (store/subscription.py), so the channel's subscribers less the listener's are the others, counted
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
#       and with the fifth key: the answer JSON and its TTL.
# The published message {"version", "events", "state"} is spliced together here from the state and
# events already passed, so the largest value crosses the wire to Redis once, not twice.
# The commit id rides in the stream entry: when a reply is lost and the client library sends the
# same commit again, the script recognises its own entry and answers success instead of a conflict
# that would make `act` decide the action a second time.
# Under an Idempotency-Key the key's record is read first, in the same step: a key that holds an
# answer already (a retry, or a twin request that committed first) commits nothing and returns that
# answer ({4, answer}); otherwise the change and its answer are written together, so a process that
# dies after the commit cannot leave a change without its answer, and two requests with one key can
# never both apply.
# The change is published only when a server other than the committing one hears the game's
# channel (HEARD_BY_OTHERS). A server that subscribes after the count loads the state after its
# subscription, and finds the change there.
# And only while the acting token still has its role: a token retired by a seat's hand-over
# (store/seats.py) commits nothing ({3, …}), even on a socket opened before the hand-over.
COMMIT_SCRIPT = HEARD_BY_OTHERS + """
local current = tonumber(redis.call('GET', KEYS[1]) or '-1')
local stale = current ~= tonumber(ARGV[1])
if stale then
  local entry = redis.call('XRANGE', KEYS[3], ARGV[2] .. '-1', ARGV[2] .. '-1')[1]
  if entry and entry[2][3] == 'c' and entry[2][4] == ARGV[9] then
    return {1, tonumber(ARGV[2])}
  end
end
if KEYS[5] then
  local answered = redis.call('GET', KEYS[5])
  if answered then
    return {4, answered}
  end
end
if stale then
  return {0, current}
end
if ARGV[10] ~= '' and redis.call('HGET', KEYS[4], ARGV[10]) ~= ARGV[11] then
  return {3, current}
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


# A refusal under an Idempotency-Key, stored in the step that checks it still stands.
# KEYS: the game's version, the key's record. ARGV: the version the refusal was decided on ('' for
# a refusal of the request itself, which no change of the game alters), the answer JSON, its TTL.
# Returns {1, answer} when the key holds an answer already (that answer is the request's), {0} when
# this refusal is now the key's answer, {2} when the game moved on since it was decided (decide again).
REFUSE = """
local answered = redis.call('GET', KEYS[2])
if answered then
  return {1, answered}
end
if ARGV[1] ~= '' and tonumber(redis.call('GET', KEYS[1]) or '-1') ~= tonumber(ARGV[1]) then
  return {2}
end
redis.call('SET', KEYS[2], ARGV[2], 'EX', tonumber(ARGV[3]))
return {0}
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
