/**
 * Cases that make every store accept, refuse and read back the same things (docs/decisions/0011):
 * input no store can keep is refused with code GLOVE_STORE_INVALID and changes nothing; what is
 * accepted reads back identically (messages as their JSON form, NUL and lone surrogates in
 * message text included).
 */
import type { InboxItem, Message, StoreAdapter, Task } from "../../types/index.js";
import { assert, assertEqual, StoreConformanceError } from "./assertions.js";
import { assertMessages, assertRefused } from "./store-checks.js";
import {
  hasCapability,
  type WithInbox,
  type WithPermissions,
  type WithSubStores,
  type WithTasks,
} from "./capabilities.js";
import { inboxItem, plainMessages, task } from "./fixtures.js";
import { MessageGenerator } from "./random-messages.js";
import type { StoreCapability, StoreConformanceCase, StoreConformanceOptions } from "./types.js";

export interface CaseContext {
  define(name: string, body: (session: (label: string) => string) => Promise<void>): StoreConformanceCase;
  open(sessionId: string): Promise<StoreAdapter>;
  required: ReadonlySet<StoreCapability>;
  options: StoreConformanceOptions;
}

/** A random message as shown in a failure (it may hold a BigInt or a cycle). */
function describeSample(value: unknown): string {
  try {
    const json = JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
    return json.length > 300 ? `${json.slice(0, 300)}…` : json;
  } catch {
    return "a message with a cycle";
  }
}

/** The stored form of a message: what JSON makes of it. */
function jsonForm<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export function parityCases({ define, open, required, options }: CaseContext): StoreConformanceCase[] {
  const openChecked = (id: string) => Promise.resolve().then(() => open(id));

  return [
    define(
      "messages no store can keep are refused with GLOVE_STORE_INVALID, the whole batch, and change nothing",
      async (session) => {
        const id = session("invalid-messages");
        const store = await open(id);
        const kept: Message[] = [
          { sender: "user", text: "keep" },
          { sender: "agent", text: "summary", is_compaction: true },
        ];
        await store.appendMessages(kept);
        const ok: Message = { sender: "user", text: "fine" };
        const cyclic: Record<string, unknown> = { sender: "user", text: "cycle" };
        cyclic["self"] = cyclic;
        const bad: Array<[string, unknown]> = [
          ["is_compaction: 1", { sender: "agent", text: "s", is_compaction: 1 }],
          ['is_compaction: "yes"', { sender: "agent", text: "s", is_compaction: "yes" }],
          ["is_compaction: null", { sender: "agent", text: "s", is_compaction: null }],
          ["is_skill_injection: 0", { sender: "user", text: "s", is_skill_injection: 0 }],
          ['sender "robot"', { sender: "robot", text: "x" }],
          ["a message without text", { sender: "user" }],
          ["text: 5", { sender: "user", text: 5 }],
          ["id: 7", { sender: "user", text: "x", id: 7 }],
          ["reasoning_content: null", { sender: "agent", text: "x", reasoning_content: null }],
          ["tool_calls that are not an array", { sender: "agent", text: "", tool_calls: { tool_name: "t" } }],
          ["a tool call without tool_name", { sender: "agent", text: "", tool_calls: [{ id: "c", input_args: {} }] }],
          [
            "a tool call id of 3",
            { sender: "agent", text: "", tool_calls: [{ tool_name: "t", id: 3, input_args: {} }] },
          ],
          [
            "a tool result without result",
            { sender: "user", text: "", tool_results: [{ tool_name: "t", call_id: "c" }] },
          ],
          ["a content part without type", { sender: "user", text: "", content: [{ text: "x" }] }],
          [
            "a BigInt in tool arguments",
            { sender: "agent", text: "", tool_calls: [{ tool_name: "t", input_args: { n: BigInt(1) } }] },
          ],
          ["a cycle", cyclic],
          ["null", null],
        ];
        for (const [what, message] of bad) {
          await assertRefused(() => store.appendMessages([message as Message]), `appendMessages([${what}])`);
          await assertRefused(() => store.appendMessages([ok, message as Message, ok]), `a batch holding ${what}`);
        }
        await assertRefused(() => store.appendMessages(undefined as unknown as Message[]), "appendMessages(undefined)");
        await assertMessages(store, kept, "after refused appends (nothing may be stored)", required);
        await assertMessages(await open(id), kept, "of a second store after refused appends", required);
      },
    ),

    define(
      "message text and data round-trip exactly (NUL, lone surrogates, astral, __proto__ keys); data JSON cannot express is stored as JSON writes it",
      async (session) => {
        const id = session("exact-text");
        const store = await open(id);
        const args: Record<string, unknown> = {
          nested: [NaN, -0, Infinity, undefined, new Date(0), { gone: undefined }],
          "k\u0000": "\ud800",
          "😀": "\u2028",
        };
        Object.defineProperty(args, "__proto__", {
          value: { polluted: true },
          enumerable: true,
          writable: true,
          configurable: true,
        });
        const messages = [
          {
            sender: "user",
            id: "id-\udc00-\u0000",
            text: "a\u0000b\ud800c\udc00d😀e\u0301\ufeff\u2028",
            pre_modified_text: "\u0000\ud83d",
            content: [{ type: "text", text: "\udbff\u0000" }],
          },
          {
            sender: "agent",
            text: "\u0000",
            reasoning_content: "why\ud800",
            tool_calls: [{ tool_name: "t\u0000\ud800", id: "c\udfff", input_args: args }],
          },
          {
            sender: "user",
            text: "",
            tool_results: [
              {
                tool_name: "t\u0000\ud800",
                call_id: "c\udfff",
                result: {
                  status: "success",
                  data: { when: new Date(86_400_000), list: [undefined, () => 1] },
                  renderData: { x: NaN },
                },
              },
            ],
          },
        ] as unknown as Message[];
        const expected = jsonForm(messages);
        assert(
          expected[0]!.text === "a\u0000b\ud800c\udc00d😀e\u0301\ufeff\u2028",
          "the fixture's JSON form keeps the text as it is",
        );
        await store.appendMessages(messages);
        await assertMessages(store, expected, "(text must be exact; data as its JSON form)", required);
        const read = await store.getMessages();
        const readArgs = read[1]!.tool_calls![0]!.input_args as Record<string, unknown>;
        assert(
          Object.keys(readArgs).includes("__proto__"),
          "an own __proto__ key in tool arguments must read back as a key",
        );
        assert(
          Object.getPrototypeOf(readArgs) === Object.prototype,
          "reading a __proto__ key must not change the object's prototype",
        );
        await assertMessages(await open(id), expected, "of a second store on the same session", required);
      },
    ),

    define("random messages (seeded): accepted exactly when valid, read back as their JSON form", async (session) => {
      const seed = options.propertySeed ?? Math.floor(Math.random() * 2 ** 31);
      const rounds = options.propertyRuns ?? 4;
      const generator = new MessageGenerator(seed);
      const again = `(seed ${seed}; pass propertySeed: ${seed} to storeConformanceCases to repeat)`;
      try {
        for (let round = 0; round < rounds; round++) {
          const id = session(`random-${round}`);
          const store = await open(id);
          const samples = Array.from({ length: 40 }, () => generator.message());
          const valid = samples.filter((s) => s.valid);
          const invalid = samples.filter((s) => !s.valid);
          for (const sample of invalid) {
            await assertRefused(
              () => store.appendMessages([sample.message as Message]),
              `a random message with ${sample.broken} (${describeSample(sample.message)})`,
            );
          }
          if (invalid[0] && valid[0]) {
            await assertRefused(
              () => store.appendMessages([valid[0]!.message as Message, invalid[0]!.message as Message]),
              `a batch holding a message with ${invalid[0].broken}`,
            );
          }
          assertEqual(await store.getMessages(), [], "getMessages() after only refused appends");
          try {
            await store.appendMessages(valid.map((s) => s.message as Message));
          } catch (error) {
            throw new StoreConformanceError(
              `a batch of ${valid.length} valid random messages was refused: ${error instanceof Error ? error.message : String(error)}`,
            );
          }
          const expected = valid.map((s) => s.expected);
          await assertMessages(store, expected, `after appending ${valid.length} random messages`, required);
          await assertMessages(await open(id), expected, "of a second store after random messages", required);
        }
      } catch (error) {
        if (error instanceof StoreConformanceError) throw new StoreConformanceError(`${error.message} ${again}`);
        throw error;
      }
    }),

    define(
      "token counts: only non-negative integers are added; a total past 2^53 - 1 is refused and the session stays readable",
      async (session) => {
        const id = session("tokens");
        const store = await open(id);
        await store.addTokens({ tokens_in: 10, tokens_out: 2 });
        for (const bad of ["12", NaN, 1.5, -1, Infinity, null, undefined, 2 ** 53, {}]) {
          await assertRefused(
            () => store.addTokens({ tokens_in: bad as number, tokens_out: 0 }),
            `addTokens({ tokens_in: ${String(bad)} })`,
          );
          await assertRefused(
            () => store.addTokens({ tokens_in: 0, tokens_out: bad as number }),
            `addTokens({ tokens_out: ${String(bad)} })`,
          );
        }
        await assertRefused(() => store.addTokens(undefined as never), "addTokens(undefined)");
        await assertRefused(
          () => store.addTokens({ tokens_in: Number.MAX_SAFE_INTEGER, tokens_out: 1 }),
          "addTokens whose own sum is past 2^53 - 1",
        );
        assertEqual(await store.getTokenCount(), 12, "getTokenCount() after refused adds");
        const max = Number.MAX_SAFE_INTEGER;
        await store.addTokens({ tokens_in: max - 20, tokens_out: 3 });
        await store.addTokens({ tokens_in: 5, tokens_out: 0 });
        assertEqual(await store.getTokenCount(), max, "getTokenCount() at exactly 2^53 - 1");
        await assertRefused(() => store.addTokens({ tokens_in: 1, tokens_out: 0 }), "an add past 2^53 - 1");
        await store.addTokens({ tokens_in: 0, tokens_out: 0 });
        assertEqual(await store.getTokenCount(), max, "getTokenCount() after a refused add past 2^53 - 1");
        assertEqual(
          await (await open(id)).getTokenCount(),
          max,
          "getTokenCount() of a second store (the session must stay readable)",
        );
        await store.resetCounters();
        await store.addTokens({ tokens_in: 1, tokens_out: 1 });
        assertEqual(await store.getTokenCount(), 2, "getTokenCount() counting again after resetCounters");
      },
    ),

    define(
      "tasks: wrong statuses or types, NUL and lone surrogates are refused whole; fields other than the task's are not kept",
      async (session) => {
        const store = await open(session("invalid-tasks"));
        if (!hasCapability(store, "tasks", required)) return;
        const s = store as WithTasks;
        const kept = [task("t1"), { ...task("t2", "in_progress"), content: "Ünïcødé 😀 e\u0301" }];
        await s.addTasks(kept);
        const bad: Array<[string, unknown]> = [
          ['status "later"', { ...task("x"), status: "later" }],
          ["status undefined", { ...task("x"), status: undefined }],
          ["content 5", { ...task("x"), content: 5 }],
          ["no activeForm", { id: "x", content: "c", status: "pending" }],
          ["id 1", { ...task("x"), id: 1 }],
          ["a NUL in the id", task("x\u0000")],
          ["a NUL in content", { ...task("x"), content: "a\u0000b" }],
          ["a lone surrogate in activeForm", { ...task("x"), activeForm: "a\ud800" }],
          ["a lone low surrogate in the id", task("\udc00x")],
          ["null", null],
        ];
        for (const [what, t] of bad) {
          await assertRefused(() => s.addTasks([task("ok"), t as Task]), `addTasks with a task with ${what}`);
          if (store.replaceTasks)
            await assertRefused(() => store.replaceTasks!([t as Task]), `replaceTasks with a task with ${what}`);
        }
        await assertRefused(() => s.updateTask("t1", { status: "later" as never }), 'updateTask(status "later")');
        await assertRefused(() => s.updateTask("t1", { content: 5 as never }), "updateTask(content 5)");
        await assertRefused(() => s.updateTask("t1", { activeForm: "x\u0000" }), "updateTask(activeForm with NUL)");
        await assertRefused(() => s.updateTask("t1\u0000", { status: "completed" }), "updateTask of an id with NUL");
        await assertRefused(() => s.updateTask("t1", null as never), "updateTask(t1, null)");
        assertEqual(await s.getTasks(), kept, "getTasks() after refused writes (nothing may change)");
        await s.addTasks([{ ...task("t3"), extra: "dropped" } as Task]);
        await s.updateTask("t3", { status: "completed", foo: 1 } as Partial<Task>);
        assertEqual(
          await s.getTasks(),
          [...kept, task("t3", "completed")],
          "getTasks() (fields other than id, content, activeForm, status are not kept)",
        );
      },
    ),

    define(
      "inbox: wrong statuses, non-boolean blocking, wrong types, NUL and lone surrogates are refused; omitted response/resolved_at read as null",
      async (session) => {
        const store = await open(session("invalid-inbox"));
        if (!hasCapability(store, "inbox", required)) return;
        const s = store as WithInbox;
        const kept = inboxItem("a", { request: "😀 e\u0301 «ok»" });
        await s.addInboxItem(kept);
        const bad: Array<[string, unknown]> = [
          ["blocking 1", { ...inboxItem("x"), blocking: 1 }],
          ['blocking "yes"', { ...inboxItem("x"), blocking: "yes" }],
          ["blocking 0", { ...inboxItem("x"), blocking: 0 }],
          ["no blocking", { ...inboxItem("x"), blocking: undefined }],
          ['status "lost"', { ...inboxItem("x"), status: "lost" }],
          ["tag 5", { ...inboxItem("x"), tag: 5 }],
          ["response 5", { ...inboxItem("x"), response: 5 }],
          ["no created_at", { ...inboxItem("x"), created_at: undefined }],
          ["a NUL in the request", inboxItem("x", { request: "a\u0000" })],
          ["a lone surrogate in the response", inboxItem("x", { response: "\ud800", status: "resolved" })],
          ["a lone surrogate in the id", inboxItem("x\udbff")],
          ["null", null],
        ];
        for (const [what, item] of bad)
          await assertRefused(() => s.addInboxItem(item as InboxItem), `addInboxItem with ${what}`);
        const badUpdates: Array<[string, unknown]> = [
          ['status "lost"', { status: "lost" }],
          ["response 5", { response: 5 }],
          ["resolved_at false", { resolved_at: false }],
          ["a NUL in the response", { status: "resolved", response: "\u0000" }],
          ["null", null],
        ];
        for (const [what, updates] of badUpdates)
          await assertRefused(() => s.updateInboxItem("a", updates as never), `updateInboxItem with ${what}`);
        await assertRefused(
          () => s.updateInboxItem("a\u0000", { status: "resolved" }),
          "updateInboxItem of an id with NUL",
        );
        assertEqual(await s.getInboxItems(), [kept], "getInboxItems() after refused writes (nothing may change)");
        const { response: _response, resolved_at: _resolvedAt, ...partial } = inboxItem("b", { blocking: true });
        void _response;
        void _resolvedAt;
        await s.addInboxItem({ ...partial, extra: 1 } as unknown as InboxItem);
        assertEqual(
          await s.getInboxItems(),
          [kept, inboxItem("b", { blocking: true })],
          "getInboxItems() (omitted response and resolved_at read as null; other fields are not kept)",
        );
        await s.updateInboxItem("b", { status: "resolved", response: null, resolved_at: "2026-01-01T00:00:00.000Z" });
        assertEqual(
          (await s.getResolvedInboxItems()).map((i) => [i.id, i.response, i.resolved_at]),
          [["b", null, "2026-01-01T00:00:00.000Z"]],
          "getResolvedInboxItems() after resolving with a null response",
        );
      },
    ),

    define("permissions: unknown statuses and tool names with NUL or lone surrogates are refused", async (session) => {
      const store = await open(session("invalid-permissions"));
      if (!hasCapability(store, "permissions", required)) return;
      const s = store as WithPermissions;
      await s.setPermission("tool", "granted");
      await assertRefused(() => s.setPermission("tool", "maybe" as never), 'setPermission(tool, "maybe")');
      await assertRefused(() => s.setPermission("tool", undefined as never), "setPermission(tool, undefined)");
      await assertRefused(() => s.setPermission("to\u0000ol", "denied"), "setPermission of a tool name with NUL");
      await assertRefused(
        () => s.setPermission("tool\ud800", "denied"),
        "setPermission of a tool name with a lone surrogate",
      );
      await assertRefused(() => s.setPermission(5 as never, "denied"), "setPermission of a tool name 5");
      await assertRefused(() => s.getPermission("tool\udc00"), "getPermission of a tool name with a lone surrogate");
      assertEqual(await s.getPermission("tool"), "granted", "getPermission(tool) after refused writes");
      await s.setPermission("工具 😀", "denied");
      assertEqual(await s.getPermission("工具 😀"), "denied", "getPermission() of a unicode tool name");
    }),

    define(
      "session ids with NUL or lone surrogates are refused (never merged); unicode ids stay distinct",
      async (session) => {
        await assertRefused(() => openChecked(session("nul\u0000")), "a store whose session id holds NUL");
        await assertRefused(
          () => openChecked(session("lone\ud800")),
          "a store whose session id holds a lone high surrogate",
        );
        await assertRefused(
          () => openChecked(session("lone\udc00")),
          "a store whose session id holds a lone low surrogate",
        );
        const a = await open(session("😀"));
        const b = await open(session("😁"));
        await a.appendMessages(plainMessages("a", 1));
        assertEqual(await b.getMessages(), [], "messages of a session whose id differs in one astral character");
        if (hasCapability(a, "subAgentStores", required)) {
          const parent = a as WithSubStores;
          await assertRefused(
            () => parent.createSubAgentStore("ns\u0000", true),
            "a sub-store whose namespace holds NUL",
          );
          await assertRefused(
            () => parent.createSubAgentStore("ns\ud800"),
            "a sub-store whose namespace holds a lone surrogate",
          );
        }
      },
    ),
  ];
}
