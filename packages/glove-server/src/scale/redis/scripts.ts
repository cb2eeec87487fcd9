import type { Redis } from "ioredis";

/**
 * Appends one event: the id is the next `seq` (or `base + 1` when Redis lost the counter, `base`
 * being above any id the catalog knows was handed out), the stream entry is `<id>-0`, and the
 * conversation's state (streaming text, announced history length, slots, running turn, stats)
 * changes in the same step, so a snapshot read from it is exactly consistent with its `last` id.
 * A worker's events carry its fencing token: once another worker took the turn over they are
 * refused (-1). `localSeq` makes a command resent after a dropped connection a no-op (0).
 * An `inbox` event carries the digest of its list: one equal to the last one on the stream is
 * dropped (0), so every instance watching the inbox may report a change and the stream gets it once.
 * The event is also published on the stream key's channel (`<id>\n<type>\n<json>`): instances
 * following the conversation get it without reading the stream (event-tail.ts).
 * `gloveEmitEnd` is the same script with two more keys, the turn's abort flag and attempt counts:
 * a worker's `turn_end` clears both in the same step (only once it is written, as before).
 */
const EMIT = `
local token = ARGV[1]
if token ~= '' then
  if redis.call('GET', KEYS[4]) ~= token then return -1 end
  local n = tonumber(ARGV[2])
  if redis.call('HGET', KEYS[3], 'emitToken') == token and tonumber(redis.call('HGET', KEYS[3], 'emitSeq') or '0') >= n then return 0 end
  redis.call('HSET', KEYS[3], 'emitToken', token, 'emitSeq', n)
end
if ARGV[3] == 'inbox' and ARGV[8] ~= '' then
  if redis.call('HGET', KEYS[3], 'inboxDigest') == ARGV[8] then return 0 end
  redis.call('HSET', KEYS[3], 'inboxDigest', ARGV[8])
end
local seq = redis.call('GET', KEYS[1])
if seq then seq = tonumber(seq) + 1 else seq = tonumber(ARGV[6]) + 1 end
redis.call('SET', KEYS[1], seq)
local t = ARGV[3]
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], seq .. '-0', 't', t, 'd', ARGV[4])
redis.call('PUBLISH', KEYS[2], seq .. '\\n' .. t .. '\\n' .. ARGV[4])
redis.call('HSET', KEYS[3], 'last', seq)
if t == 'text_delta' then
  redis.call('APPEND', KEYS[5], ARGV[8])
elseif t == 'model_response_complete' or t == 'model_response' or t == 'turn_resumed' then
  redis.call('DEL', KEYS[5])
elseif t == 'messages_appended' or t == 'branches_changed' then
  redis.call('HSET', KEYS[3], 'messageCount', ARGV[8])
elseif t == 'slot_push' then
  redis.call('HSET', KEYS[6], ARGV[8], ARGV[9])
  redis.call('HSET', KEYS[7], ARGV[8], ARGV[10])
elseif t == 'slot_settled' then
  redis.call('HSET', KEYS[7], ARGV[8], ARGV[10])
elseif t == 'turn_start' then
  redis.call('HSET', KEYS[3], 'turnId', ARGV[8])
  redis.call('DEL', KEYS[5])
  redis.call('PEXPIRE', KEYS[2], ARGV[7])
elseif t == 'turn_end' then
  redis.call('HDEL', KEYS[3], 'turnId')
  redis.call('DEL', KEYS[5], KEYS[6], KEYS[7])
  local holder = redis.call('GET', KEYS[8])
  if holder and string.sub(holder, 1, #ARGV[8]) == ARGV[8] then redis.call('DEL', KEYS[8]) end
  if token ~= '' then redis.call('DEL', KEYS[4]) end
  redis.call('PEXPIRE', KEYS[2], ARGV[7])
  if ARGV[9] == 'done' then redis.call('HSET', KEYS[3], 'noWaits', '1') end
  if KEYS[10] then
    if redis.call('GET', KEYS[9]) == ARGV[8] then redis.call('DEL', KEYS[9]) end
    redis.call('HDEL', KEYS[10], ARGV[8])
  end
end
if (t == 'model_response_complete' or t == 'model_response' or t == 'token_consumption') and ARGV[8] ~= '' then
  redis.call('HSET', KEYS[3], 'turns', ARGV[8], 'tokensIn', ARGV[9], 'tokensOut', ARGV[10])
end
return seq
`;

/**
 * A worker starts running a queued turn: 0 when the conversation's turn key no longer names it
 * (it ended already), else its fencing token takes the run lock and the attempt number comes back.
 */
const BEGIN_RUN = `
local holder = redis.call('GET', KEYS[1])
if not holder then return 0 end
local bar = string.find(holder, '|', 1, true)
if bar then holder = string.sub(holder, 1, bar - 1) end
if holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return redis.call('HINCRBY', KEYS[3], ARGV[1], 1)
`;

/** Keeps the run lock while its token holds it. */
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

/**
 * Claims the conversation for a new turn: a known client message id answers its turn (`dup`), a
 * queued or running turn answers `busy`, else the turn is recorded (and the client id with it).
 * An `ok` also takes the state's `noWaits` mark (set by a turn_end "done": no stored question can
 * wait then) and answers whether it was there; the turn now claimed may leave questions waiting.
 */
const CLAIM_TURN = `
if ARGV[2] == '1' then
  local known = redis.call('GET', KEYS[2])
  if known then return {'dup', known} end
end
local holder = redis.call('GET', KEYS[1])
if holder then return {'busy', holder} end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. ARGV[4])
if ARGV[2] == '1' then redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[3]) end
return {'ok', ARGV[1], redis.call('HDEL', KEYS[3], 'noWaits')}
`;

/** Deletes a key only while it still holds the given value. */
const DELETE_IF = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

export interface ScaleCommands {
  gloveEmit(...args: Array<string | number>): Promise<number>;
  gloveEmitEnd(...args: Array<string | number>): Promise<number>;
  gloveRenew(key: string, token: string, ms: number): Promise<number>;
  gloveBeginRun(
    turnKey: string,
    runKey: string,
    attemptsKey: string,
    turnId: string,
    fence: string,
    lockMs: number,
  ): Promise<number>;
  gloveClaimTurn(
    turnKey: string,
    clientKey: string,
    stateKey: string,
    turnId: string,
    hasClient: string,
    ttlSeconds: number,
    now: number,
  ): Promise<[string, string, number?]>;
  gloveDeleteIf(key: string, value: string): Promise<number>;
}

export type ScaleRedis = Redis & ScaleCommands;

/** The connection with the scale mode's scripts defined (EVALSHA, loaded again after a restart). */
export function withScripts(redis: Redis): ScaleRedis {
  redis.defineCommand("gloveEmit", { numberOfKeys: 8, lua: EMIT });
  redis.defineCommand("gloveEmitEnd", { numberOfKeys: 10, lua: EMIT });
  redis.defineCommand("gloveRenew", { numberOfKeys: 1, lua: RENEW });
  redis.defineCommand("gloveBeginRun", { numberOfKeys: 3, lua: BEGIN_RUN });
  redis.defineCommand("gloveClaimTurn", { numberOfKeys: 3, lua: CLAIM_TURN });
  redis.defineCommand("gloveDeleteIf", { numberOfKeys: 1, lua: DELETE_IF });
  return redis as ScaleRedis;
}
