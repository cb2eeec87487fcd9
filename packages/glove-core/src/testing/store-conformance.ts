import type { InboxItem, Message, StoreAdapter, Task } from "../types/index.js";

/**
 * StoreAdapter conformance suite (ARCHITECTURE decision 14): one set of behavioural checks that
 * every store — MemoryStore, SqliteStore, PostgresStore, yours — must pass. Framework-agnostic
 * and browser-safe: each case is a plain async function that throws a descriptive `Error` on the
 * first violation, so it runs under vitest, jest, mocha, node:test or a bare script.
 *
 * ```ts
 * import { describe, it } from "vitest";
 * import { storeConformanceCases } from "glove-core/testing";
 *
 * describe("MyStore conformance", () => {
 *   const cases = storeConformanceCases({
 *     createStore: async (sessionId) => new MyStore({ sessionId }),
 *     cleanup: async () => {}, // after every case: close what createStore opened
 *     require: ["tasks", "permissions", "inbox", "subAgentStores"],
 *   });
 *   for (const c of cases) it(c.name, c.run);
 * });
 * ```
 */

/** Optional capability groups a store may implement; see `StoreConformanceOptions.require`. */
export type StoreCapability =
  | "tasks"
  | "replaceTasks"
  | "permissions"
  | "inbox"
  | "subAgentStores"
  | "messageCount"
  | "messagesSinceLastCompaction";

export interface StoreConformanceOptions {
  /**
   * A store for `sessionId`. Calling it again with the same id must give a store over the same
   * data: persistent stores should open a new instance (new connection) so the suite also proves
   * that everything survives a reopen and is visible to a second writer; an in-memory store may
   * return the same instance. Every case uses its own, fresh session ids.
   */
  createStore(sessionId: string): Promise<StoreAdapter>;
  /** Runs after every case, passed or failed: close the stores `createStore` opened for it. */
  cleanup?(): Promise<void>;
  /**
   * Capabilities the store must implement. A case for an optional group the store lacks passes
   * (after checking the group is not half-implemented) unless the group is listed here.
   */
  require?: StoreCapability[];
  /** Prefix of the session ids the cases create (default "conformance"). */
  sessionPrefix?: string;
}

export interface StoreConformanceCase {
  name: string;
  /** Resolves when the store conforms; rejects with a descriptive Error on the first violation. */
  run(): Promise<void>;
}

/** Thrown by a failing conformance case. */
export class StoreConformanceError extends Error {
  override readonly name = "StoreConformanceError";
}

// ── Assertions ──────────────────────────────────────────────────────────────────────────────

function describeValue(value: unknown): string {
  if (value === undefined) return "undefined (absent)";
  try {
    const json = JSON.stringify(value);
    return json.length > 300 ? `${json.slice(0, 300)}…` : json;
  } catch {
    return String(value);
  }
}

/**
 * Path of the first difference between two JSON-like values, or undefined when equal. A key whose
 * value is `undefined` counts as absent; `null`, `false` and `""` are values, not absence.
 */
function firstDifference(actual: unknown, expected: unknown, path: string): string | undefined {
  if (Object.is(actual, expected)) return undefined;
  if (typeof expected !== "object" || expected === null || typeof actual !== "object" || actual === null) {
    return `${path}: expected ${describeValue(expected)}, got ${describeValue(actual)}`;
  }
  if (Array.isArray(expected) !== Array.isArray(actual)) {
    return `${path}: expected ${Array.isArray(expected) ? "an array" : "an object"}, got ${describeValue(actual)}`;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.min(expected.length, actual.length);
    for (let i = 0; i < n; i++) {
      const d = firstDifference(actual[i], expected[i], `${path}[${i}]`);
      if (d) return d;
    }
    if (expected.length !== actual.length) {
      return `${path}: expected ${expected.length} elements, got ${actual.length}`;
    }
    return undefined;
  }
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  const keys = new Set([...Object.keys(e), ...Object.keys(a)]);
  for (const key of keys) {
    const d = firstDifference(a[key], e[key], `${path}.${key}`);
    if (d) return d;
  }
  return undefined;
}

function assertEqual(actual: unknown, expected: unknown, what: string): void {
  const d = firstDifference(actual, expected, what);
  if (d) throw new StoreConformanceError(d);
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new StoreConformanceError(message);
}

async function assertRejects(promise: Promise<unknown>, message: string): Promise<void> {
  let rejected = false;
  try {
    await promise;
  } catch {
    rejected = true;
  }
  assert(rejected, message);
}

// ── Fixtures ────────────────────────────────────────────────────────────────────────────────

/** Messages exercising every field and flag of `Message`, content parts and tool payloads. */
export function conformanceMessages(): Message[] {
  return [
    {
      sender: "user",
      id: "m-user-1",
      text: "Héllo — what's the weather in 東京? 🌧️ \"quoted\" 'single' \\ back\\slash\nnew line\ttab",
      pre_modified_text: "/weather Héllo — what's the weather in 東京?",
      content: [
        { type: "text", text: "Look at this:" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==" } },
        { type: "image", source: { type: "url", media_type: "image/jpeg", url: "https://example.com/cat.jpg?size=large&q=1" } },
        { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0xLjQK" } },
        { type: "video", source: { type: "url", media_type: "video/mp4", url: "https://example.com/v.mp4" } },
      ],
    },
    {
      sender: "agent",
      id: "m-agent-1",
      text: "",
      reasoning_content: "The user wants weather. I should call get_weather twice.\n<thinking>ok</thinking>",
      tool_calls: [
        { tool_name: "get_weather", id: "call_1", input_args: { city: "Tokyo", units: ["c", "f"], days: 3, exact: true, note: null, nested: { a: { b: [1, 2.5, -3] } } } },
        { tool_name: "get_time", id: "call_2", input_args: {} },
        { tool_name: "no_id_tool", input_args: "raw string arguments" },
      ],
    },
    {
      sender: "user",
      text: "",
      tool_results: [
        {
          tool_name: "get_weather",
          call_id: "call_1",
          result: {
            status: "success",
            data: { city: "Tokyo", temps: [21.5, 22, null], sky: "rain", ok: true },
            renderData: { card: { title: "Tokyo", icon: "🌧️", rows: [["mon", 21.5]] } },
            summary: "Tokyo: rain, 21.5°C",
            generateSummaryArgs: { city: "Tokyo", rows: 1 },
          },
        },
        { tool_name: "get_time", call_id: "call_2", result: { status: "error", data: null, message: "clock unavailable" } },
        { tool_name: "no_id_tool", result: { status: "aborted", data: "partial", message: "aborted by the user" } },
      ],
    },
    { sender: "agent", text: "It's raining in Tokyo.", reasoning_content: "" },
    { sender: "user", text: "Please compact now.", is_compaction_request: true },
    { sender: "agent", id: "m-summary", text: "Summary: the user asked about Tokyo weather.", is_compaction: true },
    { sender: "user", text: "Skill: be concise.", is_skill_injection: true, content: [{ type: "text", text: "be concise" }] },
    { sender: "agent", text: "x".repeat(70_000) },
    {
      sender: "user",
      text: "all flags",
      is_compaction: false,
      is_compaction_request: false,
      is_skill_injection: false,
      tool_calls: [],
      tool_results: [],
      content: [],
    },
    { sender: "agent", text: "numbers", tool_calls: [{ tool_name: "n", id: "c9", input_args: [0, 1, -1, 1.5e300, 9007199254740991, "0", ""] }] },
  ];
}

function plainMessages(label: string, count: number): Message[] {
  return Array.from({ length: count }, (_, i) => ({
    sender: i % 2 === 0 ? ("user" as const) : ("agent" as const),
    text: `${label}#${i}`,
  }));
}

function task(id: string, status: Task["status"] = "pending"): Task {
  return { id, content: `Do ${id}`, activeForm: `Doing ${id}`, status };
}

function inboxItem(id: string, overrides: Partial<InboxItem> = {}): InboxItem {
  return {
    id,
    tag: `tag_${id}`,
    request: `When is ${id} back in stock? «unicode» ✓`,
    response: null,
    status: "pending",
    blocking: false,
    created_at: "2026-01-02T03:04:05.678Z",
    resolved_at: null,
    ...overrides,
  };
}

// ── Capability checks ───────────────────────────────────────────────────────────────────────

const GROUPS: Record<StoreCapability, Array<keyof StoreAdapter>> = {
  tasks: ["getTasks", "addTasks", "updateTask"],
  replaceTasks: ["replaceTasks"],
  permissions: ["getPermission", "setPermission"],
  inbox: ["getInboxItems", "addInboxItem", "updateInboxItem", "getResolvedInboxItems"],
  subAgentStores: ["createSubAgentStore"],
  messageCount: ["messageCount"],
  messagesSinceLastCompaction: ["getMessagesSinceLastCompaction"],
};

/**
 * Whether `store` implements the group. Throws when the group is half-implemented (some methods
 * but not all), or when it is absent but listed in `required`.
 */
function hasCapability(store: StoreAdapter, capability: StoreCapability, required: ReadonlySet<StoreCapability>): boolean {
  const methods = GROUPS[capability];
  const present = methods.filter((m) => typeof store[m] === "function");
  if (present.length > 0 && present.length < methods.length) {
    const missing = methods.filter((m) => !present.includes(m));
    throw new StoreConformanceError(
      `store "${store.identifier}" implements ${present.join(", ")} but not ${missing.join(", ")}: the ${capability} group is all or nothing`,
    );
  }
  if (present.length === 0 && required.has(capability)) {
    throw new StoreConformanceError(`store "${store.identifier}" must implement ${methods.join(", ")} (${capability} is required)`);
  }
  return present.length > 0;
}

type WithTasks = StoreAdapter & Required<Pick<StoreAdapter, "getTasks" | "addTasks" | "updateTask">>;
type WithInbox = StoreAdapter &
  Required<Pick<StoreAdapter, "getInboxItems" | "addInboxItem" | "updateInboxItem" | "getResolvedInboxItems">>;
type WithPermissions = StoreAdapter & Required<Pick<StoreAdapter, "getPermission" | "setPermission">>;
type WithSubStores = StoreAdapter & Required<Pick<StoreAdapter, "createSubAgentStore">>;

// ── The cases ───────────────────────────────────────────────────────────────────────────────

/** The conformance cases for one store implementation. Each case uses fresh session ids. */
export function storeConformanceCases(options: StoreConformanceOptions): StoreConformanceCase[] {
  const required = new Set(options.require ?? []);
  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const prefix = options.sessionPrefix ?? "conformance";
  let caseIndex = 0;

  const define = (name: string, body: (session: (label: string) => string) => Promise<void>): StoreConformanceCase => {
    const index = ++caseIndex;
    return {
      name,
      run: async () => {
        const session = (label: string) => `${prefix}-${runId}-${index}-${label}`;
        try {
          await body(session);
        } finally {
          await options.cleanup?.();
        }
      },
    };
  };
  const open = (sessionId: string) => options.createStore(sessionId);

  return [
    define("a new session is empty: no messages, zero counters", async (session) => {
      const store = await open(session("empty"));
      assert(typeof store.identifier === "string" && store.identifier.length > 0, "identifier must be a non-empty string");
      assertEqual(await store.getMessages(), [], "getMessages() of a new session");
      assertEqual(await store.getTokenCount(), 0, "getTokenCount() of a new session");
      assertEqual(await store.getTurnCount(), 0, "getTurnCount() of a new session");
      if (hasCapability(store, "messageCount", required)) assertEqual(await store.messageCount!(), 0, "messageCount() of a new session");
      if (hasCapability(store, "messagesSinceLastCompaction", required)) {
        assertEqual(await store.getMessagesSinceLastCompaction!(), [], "getMessagesSinceLastCompaction() of a new session");
      }
    }),

    define("every Message field round-trips: flags, content parts, tool calls and results, reasoning_content", async (session) => {
      const id = session("fields");
      const store = await open(id);
      const fixture = conformanceMessages();
      await store.appendMessages(fixture.slice(0, 3));
      await store.appendMessages([]);
      await store.appendMessages(fixture.slice(3));
      assertEqual(await store.getMessages(), conformanceMessages(), "getMessages()");
      const reopened = await open(id);
      assertEqual(await reopened.getMessages(), conformanceMessages(), "getMessages() of a second store on the same session");
    }),

    define("stored messages are copies: mutating what was passed in or read back changes nothing", async (session) => {
      const store = await open(session("copies"));
      const input = conformanceMessages().slice(0, 3);
      await store.appendMessages(input);
      input[0]!.text = "mutated after append";
      input[1]!.tool_calls![0]!.input_args = "mutated";
      input.push({ sender: "user", text: "pushed after append" });
      const read = await store.getMessages();
      read[2]!.tool_results![0]!.result.status = "error";
      read.pop();
      assertEqual(await store.getMessages(), conformanceMessages().slice(0, 3), "getMessages() after mutating inputs and outputs");
    }),

    define("appends keep call order, also when the calls are not awaited one by one", async (session) => {
      const store = await open(session("order"));
      const batches = Array.from({ length: 40 }, (_, i) => plainMessages(`batch${i}`, (i % 3) + 1));
      await Promise.all(batches.map((batch) => store.appendMessages(batch)));
      const sequential = plainMessages("after", 5);
      for (const message of sequential) await store.appendMessages([message]);
      assertEqual(
        (await store.getMessages()).map((m) => m.text),
        [...batches.flat(), ...sequential].map((m) => m.text),
        "message order after concurrent appends",
      );
    }),

    define("two stores on one session appending concurrently lose nothing and never split a batch", async (session) => {
      const id = session("two-writers");
      const a = await open(id);
      const b = await open(id);
      const batchesA = Array.from({ length: 25 }, (_, i) => plainMessages(`A${i}`, 3));
      const batchesB = Array.from({ length: 25 }, (_, i) => plainMessages(`B${i}`, 2));
      const calls: Array<Promise<void>> = [];
      for (let i = 0; i < 25; i++) calls.push(a.appendMessages(batchesA[i]!), b.appendMessages(batchesB[i]!));
      await Promise.all(calls);
      const texts = (await (await open(id)).getMessages()).map((m) => m.text);
      assertEqual(texts.length, 25 * 5, "number of messages after two concurrent writers");
      for (const [writer, batches] of [["A", batchesA], ["B", batchesB]] as const) {
        let last = -1;
        for (const [i, batch] of batches.entries()) {
          const start = texts.indexOf(batch[0]!.text);
          assert(start >= 0, `batch ${writer}${i} is missing`);
          assertEqual(texts.slice(start, start + batch.length), batch.map((m) => m.text), `batch ${writer}${i} (must be contiguous)`);
          assert(start > last, `writer ${writer}: batch ${i} landed before batch ${i - 1}; one writer's appends must keep call order`);
          last = start;
        }
      }
    }),

    define("token and turn counters add up, survive a reopen, and resetCounters zeroes them but keeps messages", async (session) => {
      const id = session("counters");
      const store = await open(id);
      await store.appendMessages(plainMessages("keep", 3));
      await store.addTokens({ tokens_in: 100, tokens_out: 20 });
      await store.addTokens({ tokens_in: 5, tokens_out: 0 });
      assertEqual(await store.getTokenCount(), 125, "getTokenCount() after two addTokens");
      await Promise.all(Array.from({ length: 20 }, () => store.addTokens({ tokens_in: 1, tokens_out: 2 })));
      assertEqual(await store.getTokenCount(), 185, "getTokenCount() after 20 concurrent addTokens");
      await store.incrementTurn();
      await Promise.all([store.incrementTurn(), store.incrementTurn()]);
      assertEqual(await store.getTurnCount(), 3, "getTurnCount() after three incrementTurn");
      const reopened = await open(id);
      assertEqual(await reopened.getTokenCount(), 185, "getTokenCount() of a second store on the same session");
      assertEqual(await reopened.getTurnCount(), 3, "getTurnCount() of a second store on the same session");
      await store.resetCounters();
      assertEqual(await store.getTokenCount(), 0, "getTokenCount() after resetCounters");
      assertEqual(await store.getTurnCount(), 0, "getTurnCount() after resetCounters");
      assertEqual((await store.getMessages()).length, 3, "messages after resetCounters (must be kept)");
      await store.addTokens({ tokens_in: 1, tokens_out: 1 });
      await store.incrementTurn();
      assertEqual(await store.getTokenCount(), 2, "getTokenCount() counting again after reset");
      assertEqual(await store.getTurnCount(), 1, "getTurnCount() counting again after reset");
    }),

    define("tasks: add in order, update in place, same id replaces, unknown id rejects, replaceTasks swaps the list", async (session) => {
      const id = session("tasks");
      const store = await open(id);
      if (!hasCapability(store, "tasks", required)) {
        hasCapability(store, "replaceTasks", required);
        return;
      }
      const s = store as WithTasks;
      assertEqual(await s.getTasks(), [], "getTasks() of a new session");
      await s.addTasks([task("t1"), task("t2", "in_progress")]);
      await s.addTasks([task("t3")]);
      assertEqual(await s.getTasks(), [task("t1"), task("t2", "in_progress"), task("t3")], "getTasks() after addTasks");
      await s.updateTask("t2", { status: "completed" });
      await s.updateTask("t3", { content: "Do t3 better", activeForm: "Doing t3 better" });
      const updated = [task("t1"), task("t2", "completed"), { ...task("t3"), content: "Do t3 better", activeForm: "Doing t3 better" }];
      assertEqual(await s.getTasks(), updated, "getTasks() after updateTask");
      await s.addTasks([{ ...task("t1"), content: "Do t1 again" }]);
      updated[0] = { ...task("t1"), content: "Do t1 again" };
      assertEqual(await s.getTasks(), updated, "getTasks() after addTasks with an existing id (must replace it in place)");
      await assertRejects(s.updateTask("nope", { status: "completed" }), "updateTask() of an unknown task id must reject");
      assertEqual(await (await open(id) as WithTasks).getTasks(), updated, "getTasks() of a second store on the same session");
      if (hasCapability(store, "replaceTasks", required)) {
        await store.replaceTasks!([task("n2", "in_progress"), task("t1", "completed")]);
        assertEqual(await s.getTasks(), [task("n2", "in_progress"), task("t1", "completed")], "getTasks() after replaceTasks");
        await store.replaceTasks!([]);
        assertEqual(await s.getTasks(), [], "getTasks() after replaceTasks([])");
      }
    }),

    define("permissions: unset by default, set and overwrite per tool, survive a reopen", async (session) => {
      const id = session("permissions");
      const store = await open(id);
      if (!hasCapability(store, "permissions", required)) return;
      const s = store as WithPermissions;
      assertEqual(await s.getPermission("delete_file"), "unset", "getPermission() of a tool never set");
      await s.setPermission("delete_file", "granted");
      await s.setPermission("send_email", "denied");
      assertEqual(await s.getPermission("delete_file"), "granted", "getPermission(delete_file)");
      assertEqual(await s.getPermission("send_email"), "denied", "getPermission(send_email)");
      assertEqual(await s.getPermission("other"), "unset", "getPermission(other)");
      await s.setPermission("delete_file", "denied");
      assertEqual(await s.getPermission("delete_file"), "denied", "getPermission(delete_file) after overwriting");
      const reopened = (await open(id)) as WithPermissions;
      assertEqual(await reopened.getPermission("send_email"), "denied", "getPermission() of a second store on the same session");
      await s.setPermission("send_email", "unset");
      assertEqual(await reopened.getPermission("send_email"), "unset", "getPermission() after setting back to unset");
    }),

    define("inbox: pending → resolved → consumed; getResolvedInboxItems lists only resolved; answers from another store are seen", async (session) => {
      const id = session("inbox");
      const store = await open(id);
      if (!hasCapability(store, "inbox", required)) return;
      const s = store as WithInbox;
      assertEqual(await s.getInboxItems(), [], "getInboxItems() of a new session");
      await s.addInboxItem(inboxItem("a"));
      await s.addInboxItem(inboxItem("b", { blocking: true }));
      await s.addInboxItem(inboxItem("c"));
      assertEqual(await s.getInboxItems(), [inboxItem("a"), inboxItem("b", { blocking: true }), inboxItem("c")], "getInboxItems() after three adds");
      assertEqual(await s.getResolvedInboxItems(), [], "getResolvedInboxItems() with nothing resolved");

      // Another process (a webhook) resolves "b" through its own store on the same session.
      const webhook = (await open(id)) as WithInbox;
      const resolvedAt = "2026-01-03T00:00:00.000Z";
      await webhook.updateInboxItem("b", { status: "resolved", response: "Back Tuesday. «ok» ✓", resolved_at: resolvedAt });
      const resolvedB = inboxItem("b", { blocking: true, status: "resolved", response: "Back Tuesday. «ok» ✓", resolved_at: resolvedAt });
      assertEqual(await s.getResolvedInboxItems(), [resolvedB], "getResolvedInboxItems() after another store resolved an item");

      await s.updateInboxItem("b", { status: "consumed" });
      const consumedB = { ...resolvedB, status: "consumed" as const };
      assertEqual(await s.getResolvedInboxItems(), [], "getResolvedInboxItems() after consuming (consumed items are not listed)");
      assertEqual(await s.getInboxItems(), [inboxItem("a"), consumedB, inboxItem("c")], "getInboxItems() after consume (partial update keeps other fields)");

      await s.updateInboxItem("c", { status: "resolved", response: "", resolved_at: resolvedAt });
      await s.updateInboxItem("a", { status: "resolved", response: "yes", resolved_at: resolvedAt });
      assertEqual(
        await s.getResolvedInboxItems(),
        [inboxItem("a", { status: "resolved", response: "yes", resolved_at: resolvedAt }), inboxItem("c", { status: "resolved", response: "", resolved_at: resolvedAt })],
        "getResolvedInboxItems() lists resolved items in insertion order",
      );
      await assertRejects(s.updateInboxItem("missing", { status: "resolved" }), "updateInboxItem() of an unknown item id must reject");
    }),

    define("createSubAgentStore: durable children persist per namespace, ephemeral ones start empty, all isolated", async (session) => {
      const id = session("substores");
      const parent = await open(id);
      if (!hasCapability(parent, "subAgentStores", required)) return;
      const p = parent as WithSubStores;
      await p.appendMessages(plainMessages("parent", 2));

      const planner = await p.createSubAgentStore("planner", true);
      assert(planner.identifier !== parent.identifier, "a sub-store's identifier must differ from its parent's");
      assertEqual(await planner.getMessages(), [], "messages of a new durable sub-store (must not see the parent's)");
      await planner.appendMessages(conformanceMessages().slice(0, 3));
      await planner.addTokens({ tokens_in: 7, tokens_out: 3 });
      await planner.incrementTurn();
      const plannerAgain = await p.createSubAgentStore("planner", true);
      assertEqual(await plannerAgain.getMessages(), conformanceMessages().slice(0, 3), "durable sub-store requested again");
      assertEqual(await plannerAgain.getTokenCount(), 10, "durable sub-store token count");
      const plannerReopened = await ((await open(id)) as WithSubStores).createSubAgentStore("planner", true);
      assertEqual(await plannerReopened.getMessages(), conformanceMessages().slice(0, 3), "durable sub-store through a second parent store on the same session");
      assertEqual(await plannerReopened.getTurnCount(), 1, "durable sub-store turn count through a second parent store");

      const reviewer = await p.createSubAgentStore("reviewer", true);
      assertEqual(await reviewer.getMessages(), [], "another namespace's durable sub-store");

      const ephemeral = await p.createSubAgentStore("planner");
      assertEqual(await ephemeral.getMessages(), [], "an ephemeral sub-store (must start empty, even for a durable namespace)");
      await ephemeral.appendMessages(plainMessages("eph", 1));
      await ephemeral.addTokens({ tokens_in: 1, tokens_out: 1 });
      assertEqual(await (await p.createSubAgentStore("planner", false)).getMessages(), [], "a second ephemeral sub-store");
      assertEqual(await plannerAgain.getMessages(), conformanceMessages().slice(0, 3), "the durable sub-store after ephemeral writes");

      assertEqual((await p.getMessages()).map((m) => m.text), ["parent#0", "parent#1"], "parent messages after sub-store writes");
      assertEqual(await p.getTokenCount(), 0, "parent token count after sub-store writes");
      const otherSession = (await open(session("substores-other"))) as WithSubStores;
      if (otherSession.createSubAgentStore) {
        assertEqual(await (await otherSession.createSubAgentStore("planner", true)).getMessages(), [], "another session's durable sub-store of the same namespace");
      }
    }),

    define("sessions are isolated: messages, counters, tasks, permissions and inbox", async (session) => {
      const a = await open(session("iso-a"));
      const b = await open(session("iso-b"));
      await a.appendMessages(plainMessages("a", 3));
      await a.addTokens({ tokens_in: 10, tokens_out: 1 });
      await a.incrementTurn();
      if (hasCapability(a, "tasks", new Set())) await a.addTasks!([task("ta")]);
      if (hasCapability(a, "permissions", new Set())) await a.setPermission!("tool", "granted");
      if (hasCapability(a, "inbox", new Set())) {
        await a.addInboxItem!(inboxItem("ia"));
        await a.updateInboxItem!("ia", { status: "resolved", response: "r", resolved_at: "2026-01-01T00:00:00.000Z" });
      }
      await b.appendMessages(plainMessages("b", 1));
      assertEqual((await b.getMessages()).map((m) => m.text), ["b#0"], "session b's messages");
      assertEqual((await a.getMessages()).map((m) => m.text), ["a#0", "a#1", "a#2"], "session a's messages");
      assertEqual(await b.getTokenCount(), 0, "session b's token count");
      assertEqual(await b.getTurnCount(), 0, "session b's turn count");
      if (b.messageCount) assertEqual(await b.messageCount(), 1, "session b's messageCount()");
      if (b.getTasks) assertEqual(await b.getTasks(), [], "session b's tasks");
      if (b.getPermission) assertEqual(await b.getPermission("tool"), "unset", "session b's permission");
      if (b.getInboxItems) {
        assertEqual(await b.getInboxItems(), [], "session b's inbox");
        assertEqual(await b.getResolvedInboxItems!(), [], "session b's resolved inbox items");
        await assertRejects(b.updateInboxItem!("ia", { status: "consumed" }), "updating another session's inbox item must reject");
        assertEqual((await a.getInboxItems!())[0]?.status, "resolved", "session a's item after b tried to update it");
      }
      if (b.updateTask) await assertRejects(b.updateTask("ta", { status: "completed" }), "updating another session's task must reject");
      await b.resetCounters();
      assertEqual(await a.getTokenCount(), 11, "session a's token count after b reset its counters");
    }),

    define("messageCount and getMessagesSinceLastCompaction agree with the full history, across writers", async (session) => {
      const id = session("compaction");
      const store = await open(id);
      const hasCount = hasCapability(store, "messageCount", required);
      const hasSince = hasCapability(store, "messagesSinceLastCompaction", required);
      if (!hasCount && !hasSince) return;
      const since = async (s: StoreAdapter) => s.getMessagesSinceLastCompaction!();
      const check = async (s: StoreAdapter, when: string) => {
        const all = await s.getMessages();
        if (hasCount) assertEqual(await s.messageCount!(), all.length, `messageCount() ${when}`);
        if (hasSince) {
          let last = -1;
          all.forEach((m, i) => {
            if (m.is_compaction) last = i;
          });
          assertEqual(await since(s), all.slice(Math.max(last, 0)), `getMessagesSinceLastCompaction() ${when}`);
        }
      };
      await check(store, "with no messages");
      await store.appendMessages(plainMessages("before", 4));
      await check(store, "with no compaction (must be every message)");
      await store.appendMessages([
        ...plainMessages("mid", 2),
        { sender: "agent", text: "summary 1", is_compaction: true },
        { sender: "user", text: "after 1" },
      ]);
      await check(store, "after a compaction inside a batch");
      await store.appendMessages([{ sender: "user", text: "not a summary", is_compaction: false, is_compaction_request: true }]);
      await check(store, "after an is_compaction: false message");
      await store.appendMessages([{ sender: "agent", text: "summary 2", is_compaction: true }]);
      await check(store, "with the compaction summary as the last message");
      if (hasSince) assertEqual((await since(store)).map((m) => m.text), ["summary 2"], "getMessagesSinceLastCompaction() right after a compaction");
      const other = await open(id);
      await other.appendMessages(plainMessages("other-writer", 3));
      await check(store, "after another store on the same session appended");
      if (hasSince) assertEqual((await since(store)).length, 4, "getMessagesSinceLastCompaction() after another writer appended");
      await store.appendMessages(conformanceMessages());
      await check(store, "after the full-field fixture (it holds a compaction)");
    }),
  ];
}
