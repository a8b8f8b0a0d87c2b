/**
 * The Lua scripts of the Redis spend store. Every window `K` is three keys, passed in `KEYS` in
 * this order: the totals hash `<prefix>:w:K` (`spent`, `reserved`), the reservations' expiry set
 * `<prefix>:z:K` (id → ms) and their amounts `<prefix>:a:K` (id → amount). Internal.
 */

/** Drops window `i`'s expired reservations (shared prelude; `now` is set by the script). */
const PURGE = `
local function purge(i, now)
  local hw, z, a = KEYS[3*i-2], KEYS[3*i-1], KEYS[3*i]
  local gone = redis.call('ZRANGEBYSCORE', z, '-inf', now)
  for _, rid in ipairs(gone) do
    local amt = redis.call('HGET', a, rid)
    if amt then redis.call('HINCRBYFLOAT', hw, 'reserved', -tonumber(amt)) end
    redis.call('HDEL', a, rid)
    redis.call('ZREM', z, rid)
  end
  if redis.call('ZCARD', z) == 0 and redis.call('EXISTS', hw) == 1 then
    redis.call('HSET', hw, 'reserved', '0')
  end
end
local function drop(i, id)
  local hw, z, a = KEYS[3*i-2], KEYS[3*i-1], KEYS[3*i]
  local amt = redis.call('HGET', a, id)
  if amt then
    redis.call('HINCRBYFLOAT', hw, 'reserved', -tonumber(amt))
    redis.call('HDEL', a, id)
    redis.call('ZREM', z, id)
  end
  if redis.call('ZCARD', z) == 0 and redis.call('EXISTS', hw) == 1 then
    redis.call('HSET', hw, 'reserved', '0')
  end
end
local function expire(i, at)
  if at ~= '' then
    for k = 3*i-2, 3*i do
      if redis.call('EXISTS', KEYS[k]) == 1 then redis.call('PEXPIREAT', KEYS[k], at) end
    end
  end
end
`;

/**
 * Reserve. ARGV: id, amount, now, until, then per window limit and expiresAt (`''` = never).
 * Returns `{1}`, or `{0, window index (1-based), spent, reserved}`.
 */
export const RESERVE = `${PURGE}
local id, amount, now, untilAt = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local n = #KEYS / 3
for i = 1, n do
  purge(i, now)
  local hw = KEYS[3*i-2]
  local spent = tonumber(redis.call('HGET', hw, 'spent') or '0')
  local reserved = tonumber(redis.call('HGET', hw, 'reserved') or '0')
  if reserved < 0 then reserved = 0 end
  local limit = tonumber(ARGV[3 + 2*i])
  if spent + reserved + amount > limit + 1e-9 then
    return {0, i, tostring(spent), tostring(reserved)}
  end
end
for i = 1, n do
  local hw, z, a = KEYS[3*i-2], KEYS[3*i-1], KEYS[3*i]
  redis.call('HINCRBYFLOAT', hw, 'reserved', ARGV[2])
  redis.call('HSETNX', hw, 'spent', '0')
  redis.call('HSET', a, id, ARGV[2])
  redis.call('ZADD', z, untilAt, id)
  expire(i, ARGV[4 + 2*i])
end
return {1}
`;

/**
 * Settle. KEYS: the windows' keys, then the ledger list. ARGV: id, actual, the entry's JSON, then
 * per window expiresAt.
 */
export const SETTLE = `${PURGE}
local id, actual = ARGV[1], ARGV[2]
local n = (#KEYS - 1) / 3
for i = 1, n do
  drop(i, id)
  redis.call('HINCRBYFLOAT', KEYS[3*i-2], 'spent', actual)
  redis.call('HSETNX', KEYS[3*i-2], 'reserved', '0')
  expire(i, ARGV[3 + i])
end
redis.call('RPUSH', KEYS[#KEYS], ARGV[3])
return 1
`;

/** Release. ARGV: id. */
export const RELEASE = `${PURGE}
for i = 1, #KEYS / 3 do drop(i, ARGV[1]) end
return 1
`;

/** Totals of one window at ARGV[1] (now): `{spent, reserved}` of live reservations. */
export const TOTALS = `
local hw, z, a = KEYS[1], KEYS[2], KEYS[3]
local spent = redis.call('HGET', hw, 'spent') or '0'
local ids = redis.call('ZRANGEBYSCORE', z, '(' .. ARGV[1], '+inf')
local reserved = 0
for _, rid in ipairs(ids) do reserved = reserved + tonumber(redis.call('HGET', a, rid) or '0') end
return {spent, tostring(reserved)}
`;

/** Every entry of the ledger lists in KEYS, in order. */
export const LEDGER = `
local out = {}
for _, key in ipairs(KEYS) do
  for _, entry in ipairs(redis.call('LRANGE', key, 0, -1)) do out[#out + 1] = entry end
end
return out
`;
