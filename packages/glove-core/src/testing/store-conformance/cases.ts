import type { StoreAdapter } from "../../types/index.js";
import { assert, assertEqual, assertRejects } from "./assertions.js";
import { hasCapability, type WithInbox, type WithPermissions, type WithTasks } from "./capabilities.js";
import { conformanceMessages, inboxItem, plainMessages, task } from "./fixtures.js";
import { branchCases } from "./branch-cases.js";
import { idCases } from "./id-cases.js";
import { inboxConsumeCases } from "./inbox-consume-cases.js";
import { messagePageCases } from "./message-page-cases.js";
import { modelCallCases } from "./model-call-cases.js";
import { parityCases } from "./parity-cases.js";
import { repairCases } from "./repair-cases.js";
import { subStoreCases } from "./sub-store-cases.js";
import type { StoreConformanceCase, StoreConformanceOptions } from "./types.js";
import { waitCases } from "./wait-cases.js";

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
      assert(
        typeof store.identifier === "string" && store.identifier.length > 0,
        "identifier must be a non-empty string",
      );
      assertEqual(await store.getMessages(), [], "getMessages() of a new session");
      assertEqual(await store.getTokenCount(), 0, "getTokenCount() of a new session");
      assertEqual(await store.getTurnCount(), 0, "getTurnCount() of a new session");
      if (hasCapability(store, "messageCount", required))
        assertEqual(await store.messageCount!(), 0, "messageCount() of a new session");
      if (hasCapability(store, "messagesSinceLastCompaction", required)) {
        assertEqual(
          await store.getMessagesSinceLastCompaction!(),
          [],
          "getMessagesSinceLastCompaction() of a new session",
        );
      }
    }),

    define(
      "every Message field round-trips: flags, content parts, tool calls and results, reasoning_content",
      async (session) => {
        const id = session("fields");
        const store = await open(id);
        const fixture = conformanceMessages();
        await store.appendMessages(fixture.slice(0, 3));
        await store.appendMessages([]);
        await store.appendMessages(fixture.slice(3));
        assertEqual(await store.getMessages(), conformanceMessages(), "getMessages()");
        const reopened = await open(id);
        assertEqual(
          await reopened.getMessages(),
          conformanceMessages(),
          "getMessages() of a second store on the same session",
        );
      },
    ),

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
      assertEqual(
        await store.getMessages(),
        conformanceMessages().slice(0, 3),
        "getMessages() after mutating inputs and outputs",
      );
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
      for (const [writer, batches] of [
        ["A", batchesA],
        ["B", batchesB],
      ] as const) {
        let last = -1;
        for (const [i, batch] of batches.entries()) {
          const start = texts.indexOf(batch[0]!.text);
          assert(start >= 0, `batch ${writer}${i} is missing`);
          assertEqual(
            texts.slice(start, start + batch.length),
            batch.map((m) => m.text),
            `batch ${writer}${i} (must be contiguous)`,
          );
          assert(
            start > last,
            `writer ${writer}: batch ${i} landed before batch ${i - 1}; one writer's appends must keep call order`,
          );
          last = start;
        }
      }
    }),

    define(
      "token and turn counters add up, survive a reopen, and resetCounters zeroes them but keeps messages",
      async (session) => {
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
      },
    ),

    define(
      "tasks: add in order, update in place, same id replaces, unknown id rejects, replaceTasks swaps the list",
      async (session) => {
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
        assertEqual(
          await s.getTasks(),
          [task("t1"), task("t2", "in_progress"), task("t3")],
          "getTasks() after addTasks",
        );
        await s.updateTask("t2", { status: "completed" });
        await s.updateTask("t3", { content: "Do t3 better", activeForm: "Doing t3 better" });
        const updated = [
          task("t1"),
          task("t2", "completed"),
          { ...task("t3"), content: "Do t3 better", activeForm: "Doing t3 better" },
        ];
        assertEqual(await s.getTasks(), updated, "getTasks() after updateTask");
        await s.addTasks([{ ...task("t1"), content: "Do t1 again" }]);
        updated[0] = { ...task("t1"), content: "Do t1 again" };
        assertEqual(
          await s.getTasks(),
          updated,
          "getTasks() after addTasks with an existing id (must replace it in place)",
        );
        await assertRejects(
          s.updateTask("nope", { status: "completed" }),
          "updateTask() of an unknown task id must reject",
        );
        assertEqual(
          await ((await open(id)) as WithTasks).getTasks(),
          updated,
          "getTasks() of a second store on the same session",
        );
        if (hasCapability(store, "replaceTasks", required)) {
          await store.replaceTasks!([task("n2", "in_progress"), task("t1", "completed")]);
          assertEqual(
            await s.getTasks(),
            [task("n2", "in_progress"), task("t1", "completed")],
            "getTasks() after replaceTasks",
          );
          await store.replaceTasks!([]);
          assertEqual(await s.getTasks(), [], "getTasks() after replaceTasks([])");
        }
      },
    ),

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
      assertEqual(
        await reopened.getPermission("send_email"),
        "denied",
        "getPermission() of a second store on the same session",
      );
      await s.setPermission("send_email", "unset");
      assertEqual(await reopened.getPermission("send_email"), "unset", "getPermission() after setting back to unset");
    }),

    define(
      "inbox: pending → resolved → consumed; getResolvedInboxItems lists only resolved; answers from another store are seen",
      async (session) => {
        const id = session("inbox");
        const store = await open(id);
        if (!hasCapability(store, "inbox", required)) return;
        const s = store as WithInbox;
        assertEqual(await s.getInboxItems(), [], "getInboxItems() of a new session");
        await s.addInboxItem(inboxItem("a"));
        await s.addInboxItem(inboxItem("b", { blocking: true }));
        await s.addInboxItem(inboxItem("c"));
        assertEqual(
          await s.getInboxItems(),
          [inboxItem("a"), inboxItem("b", { blocking: true }), inboxItem("c")],
          "getInboxItems() after three adds",
        );
        assertEqual(await s.getResolvedInboxItems(), [], "getResolvedInboxItems() with nothing resolved");

        // Another process (a webhook) resolves "b" through its own store on the same session.
        const webhook = (await open(id)) as WithInbox;
        const resolvedAt = "2026-01-03T00:00:00.000Z";
        await webhook.updateInboxItem("b", {
          status: "resolved",
          response: "Back Tuesday. «ok» ✓",
          resolved_at: resolvedAt,
        });
        const resolvedB = inboxItem("b", {
          blocking: true,
          status: "resolved",
          response: "Back Tuesday. «ok» ✓",
          resolved_at: resolvedAt,
        });
        assertEqual(
          await s.getResolvedInboxItems(),
          [resolvedB],
          "getResolvedInboxItems() after another store resolved an item",
        );

        await s.updateInboxItem("b", { status: "consumed" });
        const consumedB = { ...resolvedB, status: "consumed" as const };
        assertEqual(
          await s.getResolvedInboxItems(),
          [],
          "getResolvedInboxItems() after consuming (consumed items are not listed)",
        );
        assertEqual(
          await s.getInboxItems(),
          [inboxItem("a"), consumedB, inboxItem("c")],
          "getInboxItems() after consume (partial update keeps other fields)",
        );

        await s.updateInboxItem("c", { status: "resolved", response: "", resolved_at: resolvedAt });
        await s.updateInboxItem("a", { status: "resolved", response: "yes", resolved_at: resolvedAt });
        assertEqual(
          await s.getResolvedInboxItems(),
          [
            inboxItem("a", { status: "resolved", response: "yes", resolved_at: resolvedAt }),
            inboxItem("c", { status: "resolved", response: "", resolved_at: resolvedAt }),
          ],
          "getResolvedInboxItems() lists resolved items in insertion order",
        );
        await assertRejects(
          s.updateInboxItem("missing", { status: "resolved" }),
          "updateInboxItem() of an unknown item id must reject",
        );
      },
    ),

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
      assertEqual(
        (await b.getMessages()).map((m) => m.text),
        ["b#0"],
        "session b's messages",
      );
      assertEqual(
        (await a.getMessages()).map((m) => m.text),
        ["a#0", "a#1", "a#2"],
        "session a's messages",
      );
      assertEqual(await b.getTokenCount(), 0, "session b's token count");
      assertEqual(await b.getTurnCount(), 0, "session b's turn count");
      if (b.messageCount) assertEqual(await b.messageCount(), 1, "session b's messageCount()");
      if (b.getTasks) assertEqual(await b.getTasks(), [], "session b's tasks");
      if (b.getPermission) assertEqual(await b.getPermission("tool"), "unset", "session b's permission");
      if (b.getInboxItems) {
        assertEqual(await b.getInboxItems(), [], "session b's inbox");
        assertEqual(await b.getResolvedInboxItems!(), [], "session b's resolved inbox items");
        await assertRejects(
          b.updateInboxItem!("ia", { status: "consumed" }),
          "updating another session's inbox item must reject",
        );
        assertEqual((await a.getInboxItems!())[0]?.status, "resolved", "session a's item after b tried to update it");
      }
      if (b.updateTask)
        await assertRejects(b.updateTask("ta", { status: "completed" }), "updating another session's task must reject");
      await b.resetCounters();
      assertEqual(await a.getTokenCount(), 11, "session a's token count after b reset its counters");
    }),

    define(
      "messageCount and getMessagesSinceLastCompaction agree with the full history, across writers",
      async (session) => {
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
        await store.appendMessages([
          { sender: "user", text: "not a summary", is_compaction: false, is_compaction_request: true },
        ]);
        await check(store, "after an is_compaction: false message");
        await store.appendMessages([{ sender: "agent", text: "summary 2", is_compaction: true }]);
        await check(store, "with the compaction summary as the last message");
        if (hasSince)
          assertEqual(
            (await since(store)).map((m) => m.text),
            ["summary 2"],
            "getMessagesSinceLastCompaction() right after a compaction",
          );
        const other = await open(id);
        await other.appendMessages(plainMessages("other-writer", 3));
        await check(store, "after another store on the same session appended");
        if (hasSince)
          assertEqual((await since(store)).length, 4, "getMessagesSinceLastCompaction() after another writer appended");
        await store.appendMessages(conformanceMessages());
        await check(store, "after the full-field fixture (it holds a compaction)");
      },
    ),
    ...parityCases({ define, open, required, options }),
    ...repairCases({ define, open, required, options }),
    ...idCases({ define, open, required, options }),
    ...subStoreCases({ define, open, required, options }),
    ...waitCases({ define, open, required, options }),
    ...inboxConsumeCases({ define, open, required, options }),
    ...messagePageCases({ define, open, required, options }),
    ...branchCases({ define, open, required, options }),
    ...modelCallCases({ define, open, required, options }),
  ];
}
