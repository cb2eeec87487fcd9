/**
 * Differential property test (fast-check): random sequences of store operations, with arguments
 * valid and not (random statuses, flags, counts, strings with NUL and lone surrogates, ids on both
 * sides of the 1024-byte key limit, arbitrary JSON), run on a MemoryStore and on the store under
 * test. Both must give the same outcome for every operation (done, or refused with the same error
 * code; never a raw driver error) and read back the same state after it. Tool calls and results
 * share a small id pool, so turns are moved on from (repaired) and late results refused
 * (docs/decisions/0020); sub-stores and sessions are opened with generated ids; durable questions
 * are added, settled and read with the same odd arguments. Used by the
 * SQLite and PostgreSQL test suites.
 */
import fc from "fast-check";
import { expect } from "vitest";
import {
  GloveError,
  MemoryStore,
  type InboxItem,
  type Message,
  type StoreAdapter,
  type StoredWait,
  type Task,
  type WaitFilter,
  type WaitOutcome,
} from "glove-core";

type Op =
  | { op: "append"; msgs: unknown[] }
  | { op: "calls"; ids: Array<string | undefined> }
  | { op: "results"; ids: string[] }
  | { op: "say"; text: string }
  | { op: "subStore"; namespace: string; durable: boolean }
  | { op: "open"; id: string }
  | { op: "tokens"; tokens_in: unknown; tokens_out: unknown }
  | { op: "reset" }
  | { op: "addTasks"; tasks: unknown[] }
  | { op: "replaceTasks"; tasks: unknown[] }
  | { op: "updateTask"; id: string; updates: unknown }
  | { op: "addInbox"; item: unknown }
  | { op: "updateInbox"; id: string; updates: unknown }
  | { op: "setPermission"; name: string; status: unknown }
  | { op: "getPermission"; name: string }
  | { op: "addWait"; wait: unknown }
  | { op: "settleWait"; id: string; outcome: unknown }
  | { op: "getWaits"; filter: unknown };

const codeUnit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("a", "b", "é", "😀", " ") },
  { weight: 1, arbitrary: fc.constantFrom("\u0000", "\ud800", "\udbff", "\udc00", "\udfff", "\u2028", '"', "\\") },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) },
);
/** Any string of UTF-16 code units: NUL, lone surrogates and astral pairs included. */
const text = fc.string({ unit: codeUnit, maxLength: 8 });
/** Values of the wrong type for most fields, and the numbers JSON cannot express. */
const oddValue = fc.constantFrom<unknown>(
  undefined,
  null,
  NaN,
  -0,
  Infinity,
  1.5,
  -1,
  "12",
  2 ** 53,
  true,
  false,
  1,
  0,
  "yes",
  "",
  [],
  {},
);
const anyValue = fc.oneof(text, fc.jsonValue(), oddValue);
const data = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue() },
  { weight: 1, arbitrary: oddValue },
  { weight: 1, arbitrary: fc.array(fc.oneof(oddValue, text), { maxLength: 3 }) },
);
const flag = fc.oneof(fc.boolean(), oddValue);
/** Keys of 240–560 characters of 1 to 4 UTF-8 bytes each: both sides of the 1024-byte key limit. */
const longText = fc.string({ unit: fc.constantFrom("a", "é", "東", "😀"), minLength: 240, maxLength: 560 });
const ids = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom("t1", "t2", "i1", "i2") },
  { weight: 2, arbitrary: text },
  { weight: 1, arbitrary: longText },
);
/** Tool call ids from a small pool, so results meet their calls, or calls already answered. */
const callId = fc.oneof({ weight: 6, arbitrary: fc.constantFrom("c1", "c2", "c3") }, { weight: 1, arbitrary: text });

const toolCall = fc.record(
  {
    tool_name: fc.oneof({ weight: 5, arbitrary: text }, { weight: 1, arbitrary: anyValue }),
    id: fc.oneof({ weight: 5, arbitrary: callId }, { weight: 1, arbitrary: anyValue }),
    input_args: data,
  },
  { requiredKeys: ["input_args"] },
);
const toolResult = fc.record(
  {
    tool_name: fc.oneof({ weight: 5, arbitrary: text }, { weight: 1, arbitrary: anyValue }),
    call_id: callId,
    result: fc.oneof(
      {
        weight: 5,
        arbitrary: fc.record(
          { status: fc.oneof(fc.constantFrom("success", "error", "aborted"), anyValue), data, message: text },
          { requiredKeys: ["status", "data"] },
        ),
      },
      { weight: 1, arbitrary: anyValue },
    ),
  },
  { requiredKeys: ["tool_name", "result"] },
);
const message = fc.record(
  {
    sender: fc.oneof({ weight: 8, arbitrary: fc.constantFrom("user", "agent") }, { weight: 1, arbitrary: anyValue }),
    text: fc.oneof({ weight: 8, arbitrary: text }, { weight: 1, arbitrary: anyValue }),
    id: fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: anyValue }),
    reasoning_content: text,
    is_compaction: flag,
    is_compaction_request: flag,
    is_skill_injection: flag,
    tool_calls: fc.oneof(
      { weight: 6, arbitrary: fc.array(toolCall, { maxLength: 2 }) },
      { weight: 1, arbitrary: anyValue },
    ),
    tool_results: fc.array(toolResult, { maxLength: 2 }),
    content: fc.array(
      fc.record({ type: fc.oneof(fc.constantFrom("text", "image"), anyValue), text }, { requiredKeys: ["type"] }),
      { maxLength: 2 },
    ),
    extra: data,
  },
  { requiredKeys: ["sender", "text"] },
);
const count = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 1000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 2 ** 52, max: Number.MAX_SAFE_INTEGER }) },
  { weight: 1, arbitrary: oddValue },
);
const taskStatus = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("pending", "in_progress", "completed") },
  { weight: 1, arbitrary: anyValue },
);
const taskish = fc.record(
  {
    id: ids,
    content: fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: anyValue }),
    activeForm: text,
    status: taskStatus,
    extra: anyValue,
  },
  { requiredKeys: ["id", "content", "activeForm", "status"] },
);
const inboxStatus = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("pending", "resolved", "consumed") },
  { weight: 1, arbitrary: anyValue },
);
const nullableText = fc.oneof(text, fc.constant(null), anyValue);
const inboxish = fc.record(
  {
    id: ids,
    tag: fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: anyValue }),
    request: text,
    response: nullableText,
    status: inboxStatus,
    blocking: fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: anyValue }),
    created_at: text,
    resolved_at: nullableText,
    extra: anyValue,
  },
  { requiredKeys: ["id", "tag", "request", "status", "blocking", "created_at"] },
);
const permissionStatus = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("granted", "denied", "unset") },
  { weight: 1, arbitrary: anyValue },
);
const toolName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("tool", "other") },
  { weight: 2, arbitrary: text },
  { weight: 1, arbitrary: longText },
);
const namespace = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("planner", "worker") },
  { weight: 2, arbitrary: text },
  { weight: 1, arbitrary: longText },
);

const waitStatus = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("pending", "resolved", "rejected", "cancelled") },
  { weight: 1, arbitrary: anyValue },
);
const waitish = fc.record(
  {
    id: ids,
    kind: fc.oneof({ weight: 4, arbitrary: fc.constantFrom("question", "step") }, { weight: 1, arbitrary: anyValue }),
    toolCallId: fc.oneof({ weight: 4, arbitrary: callId }, { weight: 1, arbitrary: anyValue }),
    toolName: toolName,
    position: fc.oneof({ weight: 4, arbitrary: fc.nat({ max: 5 }) }, { weight: 1, arbitrary: oddValue }),
    renderer: fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: anyValue }),
    input: data,
    value: data,
    displayStrategy: fc.oneof(fc.constantFrom("stay", "hide-on-new"), anyValue),
    status: waitStatus,
    created_at: text,
    settled_at: nullableText,
    extra: anyValue,
  },
  { requiredKeys: ["id", "kind", "toolCallId", "toolName", "position", "renderer", "status", "created_at"] },
);

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant("append" as const), msgs: fc.array(message, { maxLength: 3 }) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("calls" as const),
      ids: fc.array(fc.option(callId, { nil: undefined }), { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("results" as const),
      ids: fc.array(callId, { minLength: 1, maxLength: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("say" as const), text }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("subStore" as const), namespace, durable: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("open" as const), id: fc.oneof(text, longText) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("tokens" as const), tokens_in: count, tokens_out: count }) },
  { weight: 1, arbitrary: fc.constant({ op: "reset" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("addTasks" as const), tasks: fc.array(taskish, { maxLength: 3 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("replaceTasks" as const), tasks: fc.array(taskish, { maxLength: 3 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("updateTask" as const),
      id: ids,
      updates: fc.oneof(
        fc.record(
          { content: anyValue, activeForm: text, status: taskStatus, id: text, extra: anyValue },
          { requiredKeys: [] },
        ),
        anyValue,
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("addInbox" as const), item: inboxish }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("updateInbox" as const),
      id: ids,
      updates: fc.oneof(
        fc.record(
          { status: inboxStatus, response: nullableText, resolved_at: nullableText, tag: anyValue },
          { requiredKeys: [] },
        ),
        anyValue,
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant("setPermission" as const), name: toolName, status: permissionStatus }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("getPermission" as const), name: toolName }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("addWait" as const), wait: waitish }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("settleWait" as const),
      id: ids,
      outcome: fc.oneof(
        fc.record({ status: waitStatus, value: data, settled_at: text }, { requiredKeys: ["status"] }),
        anyValue,
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("getWaits" as const),
      filter: fc.oneof(
        fc.constant(undefined),
        fc.record({ status: waitStatus, toolCallId: callId }, { requiredKeys: [] }),
        anyValue,
      ),
    }),
  },
);

/** What an operation came to: its value, or the code it was refused with. */
async function outcome(run: () => Promise<unknown>): Promise<{ ok: unknown } | { refused: string }> {
  try {
    return { ok: await run() };
  } catch (error) {
    if (!GloveError.isInstance(error)) {
      throw new Error(
        `refused with a ${error instanceof Error ? error.name : typeof error}, not a GloveError: ${String(error)}`,
        { cause: error },
      );
    }
    return { refused: error.code };
  }
}

/** One side of the comparison: its store, how to open another session, the ephemeral sub-store ids it handed out. */
interface Side {
  store: StoreAdapter;
  open(sessionId: string): Promise<StoreAdapter>;
  ephemeral: Set<string>;
}

/** A sub-store's identifier with its random part replaced, so both sides compare; and whether it is new. */
async function subStore(side: Side, namespace: string, durable: boolean) {
  const child = await side.store.createSubAgentStore!(namespace, durable);
  const fresh = !side.ephemeral.has(child.identifier);
  if (!durable) side.ephemeral.add(child.identifier);
  await child.appendMessages([{ sender: "user", text: "sub" }]);
  return {
    identifier: child.identifier.replace(/~[0-9a-f-]{36}$/, "~<uuid>"),
    fresh,
    messages: await child.getMessages(),
  };
}

function apply(side: Side, o: Op): Promise<unknown> {
  const { store } = side;
  switch (o.op) {
    case "append":
      return store.appendMessages(o.msgs as Message[]);
    case "calls":
      return store.appendMessages([
        {
          sender: "agent",
          text: "",
          tool_calls: o.ids.map((id) => ({ tool_name: "t", ...(id === undefined ? {} : { id }), input_args: {} })),
        },
      ]);
    case "results":
      return store.appendMessages([
        {
          sender: "user",
          text: "",
          tool_results: o.ids.map((call_id) => ({ tool_name: "t", call_id, result: { status: "success", data: 1 } })),
        },
      ]);
    case "say":
      return store.appendMessages([{ sender: "user", text: o.text }]);
    case "subStore":
      return subStore(side, o.namespace, o.durable);
    case "open":
      return Promise.resolve()
        .then(() => side.open(`${store.identifier}:${o.id}`))
        .then(async (opened) => ({
          identifier: opened.identifier.slice(store.identifier.length),
          messages: await opened.getMessages(),
        }));
    case "tokens":
      return store.addTokens({ tokens_in: o.tokens_in as number, tokens_out: o.tokens_out as number });
    case "reset":
      return store.resetCounters();
    case "addTasks":
      return store.addTasks!(o.tasks as Task[]);
    case "replaceTasks":
      return store.replaceTasks!(o.tasks as Task[]);
    case "updateTask":
      return store.updateTask!(o.id, o.updates as Partial<Task>);
    case "addInbox":
      return store.addInboxItem!(o.item as InboxItem);
    case "updateInbox":
      return store.updateInboxItem!(o.id, o.updates as never);
    case "setPermission":
      return store.setPermission!(o.name, o.status as never);
    case "getPermission":
      return store.getPermission!(o.name);
    case "addWait":
      return store.addWait!(o.wait as StoredWait);
    case "settleWait":
      return store.settleWait!(o.id, o.outcome as WaitOutcome);
    case "getWaits":
      return store.getWaits!(o.filter as WaitFilter);
  }
}

async function state(store: StoreAdapter) {
  return {
    messages: await store.getMessages(),
    count: await store.messageCount!(),
    sinceCompaction: await store.getMessagesSinceLastCompaction!(),
    tokens: await store.getTokenCount(),
    turns: await store.getTurnCount(),
    tasks: await store.getTasks!(),
    inbox: await store.getInboxItems!(),
    resolved: await store.getResolvedInboxItems!(),
    permissions: [await store.getPermission!("tool"), await store.getPermission!("other")],
    waits: await store.getWaits!(),
  };
}

/**
 * Runs `numRuns` random operation sequences; `open(sessionId)` gives the store under test on a
 * session (with its default options: interrupted turns are repaired, as by MemoryStore).
 */
export async function checkParityWithMemoryStore(
  open: (sessionId: string) => Promise<StoreAdapter>,
  numRuns: number,
): Promise<void> {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
      const sessionId = `parity-${process.pid}-${Date.now().toString(36)}-${run++}`;
      const reference: Side = {
        store: new MemoryStore(sessionId),
        open: async (id) => new MemoryStore(id),
        ephemeral: new Set(),
      };
      const subject: Side = { store: await open(sessionId), open, ephemeral: new Set() };
      for (const [i, o] of ops.entries()) {
        const expected = await outcome(() => apply(reference, o));
        const actual = await outcome(() => apply(subject, o));
        expect(actual, `outcome of operation ${i} (${o.op})`).toStrictEqual(expected);
        expect(await state(subject.store), `state after operation ${i} (${o.op})`).toStrictEqual(
          await state(reference.store),
        );
      }
    }),
    { numRuns },
  );
}
