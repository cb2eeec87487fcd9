import { describe, expect, it } from "vitest";
import { MemoryStore, MemoryStoreError } from "../../src/stores/memory-store.js";
import type { InboxItem, Message, Task } from "../../src/types/index.js";

const user = (text: string): Message => ({ sender: "user", text });
const agent = (text: string): Message => ({ sender: "agent", text });
const summary = (text: string): Message => ({ sender: "user", text, is_compaction: true });

const task = (id: string, overrides: Partial<Task> = {}): Task => ({
  id,
  content: `Do ${id}`,
  activeForm: `Doing ${id}`,
  status: "pending",
  ...overrides,
});

const inboxItem = (id: string, overrides: Partial<InboxItem> = {}): InboxItem => ({
  id,
  tag: "restock_check",
  request: `Tell me when ${id} is back`,
  response: null,
  status: "pending",
  blocking: false,
  created_at: "2025-01-01T00:00:00.000Z",
  resolved_at: null,
  ...overrides,
});

describe("MemoryStore messages", () => {
  it("keeps its identifier and starts empty", async () => {
    const store = new MemoryStore("session-1");
    expect(store.identifier).toBe("session-1");
    expect(await store.getMessages()).toEqual([]);
    expect(await store.getMessagesSinceLastCompaction()).toEqual([]);
  });

  it("appends in order and keeps every Message field, flags included", async () => {
    const store = new MemoryStore("s");
    const full: Message = {
      sender: "agent",
      id: "m2",
      text: "calling",
      pre_modified_text: "orig",
      content: [{ type: "image", source: { type: "url", media_type: "image/png", url: "https://x/y.png" } }],
      tool_calls: [{ tool_name: "t", input_args: { a: 1 }, id: "c1" }],
      tool_results: [
        { tool_name: "t", call_id: "c1", result: { status: "success", data: { ok: true }, renderData: [1] } },
      ],
      is_compaction_request: true,
      is_skill_injection: true,
      reasoning_content: "thinking",
    };
    await store.appendMessages([user("one")]);
    await store.appendMessages([full, agent("three")]);
    expect(await store.getMessages()).toEqual([user("one"), full, agent("three")]);
  });

  it("returns copies: mutating input or output does not change the store", async () => {
    const store = new MemoryStore("s");
    const input = {
      sender: "user",
      text: "original",
      tool_calls: [{ tool_name: "t", input_args: { n: 1 } }],
    } satisfies Message;
    await store.appendMessages([input]);
    input.text = "mutated input";
    input.tool_calls[0]!.input_args = { n: 2 };

    const read = await store.getMessages();
    read[0]!.text = "mutated output";
    read.push(user("extra"));
    const since = await store.getMessagesSinceLastCompaction();
    since[0]!.text = "mutated since";

    expect(await store.getMessages()).toEqual([
      { sender: "user", text: "original", tool_calls: [{ tool_name: "t", input_args: { n: 1 } }] },
    ]);
  });

  it("keeps order under concurrent appends", async () => {
    const store = new MemoryStore("s");
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.appendMessages([user(`${i}a`), agent(`${i}b`)])));
    const texts = (await store.getMessages()).map((message) => message.text);
    expect(texts).toEqual(Array.from({ length: 50 }, (_, i) => [`${i}a`, `${i}b`]).flat());
  });

  it("messageCount counts every appended message", async () => {
    const store = new MemoryStore("s");
    expect(await store.messageCount()).toBe(0);
    await store.appendMessages([user("a"), summary("S"), agent("b")]);
    expect(await store.messageCount()).toBe(3);
  });

  it("getMessagesSinceLastCompaction returns everything when there was no compaction", async () => {
    const store = new MemoryStore("s");
    await store.appendMessages([user("a"), agent("b")]);
    expect(await store.getMessagesSinceLastCompaction()).toEqual([user("a"), agent("b")]);
  });

  it("getMessagesSinceLastCompaction starts at the latest compaction after several", async () => {
    const store = new MemoryStore("s");
    await store.appendMessages([user("a"), agent("b"), summary("S1"), user("c")]);
    expect(await store.getMessagesSinceLastCompaction()).toEqual([summary("S1"), user("c")]);

    // Two compactions in one batch, then more history in a later batch.
    await store.appendMessages([agent("d"), summary("S2"), user("e"), summary("S3")]);
    expect(await store.getMessagesSinceLastCompaction()).toEqual([summary("S3")]);

    await store.appendMessages([user("f"), agent("g")]);
    expect(await store.getMessagesSinceLastCompaction()).toEqual([summary("S3"), user("f"), agent("g")]);
    // The full history is untouched.
    expect(await store.getMessages()).toHaveLength(10);
  });

  it("does not treat is_compaction: false as a boundary", async () => {
    const store = new MemoryStore("s");
    await store.appendMessages([summary("S1"), { sender: "user", text: "x", is_compaction: false }]);
    expect((await store.getMessagesSinceLastCompaction()).map((m) => m.text)).toEqual(["S1", "x"]);
  });
});

describe("MemoryStore counters", () => {
  it("sums tokens_in and tokens_out cumulatively and counts turns", async () => {
    const store = new MemoryStore("s");
    expect(await store.getTokenCount()).toBe(0);
    expect(await store.getTurnCount()).toBe(0);
    await store.addTokens({ tokens_in: 100, tokens_out: 20 });
    await store.addTokens({ tokens_in: 5, tokens_out: 3 });
    await store.incrementTurn();
    await store.incrementTurn();
    expect(await store.getTokenCount()).toBe(128);
    expect(await store.getTurnCount()).toBe(2);
  });

  it("resetCounters zeroes tokens and turns but keeps messages", async () => {
    const store = new MemoryStore("s");
    await store.appendMessages([user("keep me")]);
    await store.addTokens({ tokens_in: 10, tokens_out: 10 });
    await store.incrementTurn();
    await store.resetCounters();
    expect(await store.getTokenCount()).toBe(0);
    expect(await store.getTurnCount()).toBe(0);
    expect(await store.getMessages()).toEqual([user("keep me")]);
    await store.addTokens({ tokens_in: 1, tokens_out: 2 });
    expect(await store.getTokenCount()).toBe(3);
  });
});

describe("MemoryStore tasks", () => {
  it("adds, reads and updates tasks in order", async () => {
    const store = new MemoryStore("s");
    expect(await store.getTasks()).toEqual([]);
    await store.addTasks([task("1"), task("2")]);
    await store.addTasks([task("3")]);
    await store.updateTask("2", { status: "in_progress" });
    expect(await store.getTasks()).toEqual([task("1"), task("2", { status: "in_progress" }), task("3")]);
  });

  it("adding a task with an existing id replaces it in place", async () => {
    const store = new MemoryStore("s");
    await store.addTasks([task("1"), task("2")]);
    await store.addTasks([task("1", { status: "completed" })]);
    expect(await store.getTasks()).toEqual([task("1", { status: "completed" }), task("2")]);
  });

  it("updateTask keeps the id even when updates carry another one", async () => {
    const store = new MemoryStore("s");
    await store.addTasks([task("1")]);
    await store.updateTask("1", { id: "other", content: "Renamed" });
    expect(await store.getTasks()).toEqual([task("1", { content: "Renamed" })]);
  });

  it("replaceTasks swaps the whole list, dropping tasks not in it", async () => {
    const store = new MemoryStore("s");
    await store.addTasks([task("1"), task("2")]);
    await store.replaceTasks([task("3"), task("1", { status: "completed" })]);
    expect(await store.getTasks()).toEqual([task("3"), task("1", { status: "completed" })]);
    await store.replaceTasks([]);
    expect(await store.getTasks()).toEqual([]);
  });

  it("updateTask of an unknown id throws a clear error", async () => {
    const store = new MemoryStore("s");
    await expect(store.updateTask("nope", { status: "completed" })).rejects.toThrow(/nope/);
  });

  it("returns copies of tasks", async () => {
    const store = new MemoryStore("s");
    const input = task("1");
    await store.addTasks([input]);
    input.status = "completed";
    const read = await store.getTasks();
    read[0]!.status = "completed";
    expect(await store.getTasks()).toEqual([task("1")]);
  });
});

describe("MemoryStore permissions", () => {
  it("returns unset until set, then the stored status", async () => {
    const store = new MemoryStore("s");
    expect(await store.getPermission("delete_file")).toBe("unset");
    await store.setPermission("delete_file", "granted");
    await store.setPermission("send_email", "denied");
    expect(await store.getPermission("delete_file")).toBe("granted");
    expect(await store.getPermission("send_email")).toBe("denied");
    await store.setPermission("delete_file", "unset");
    expect(await store.getPermission("delete_file")).toBe("unset");
  });
});

describe("MemoryStore inbox", () => {
  it("adds, updates and lists items; resolved lists only status resolved", async () => {
    const store = new MemoryStore("s");
    await store.addInboxItem(inboxItem("a"));
    await store.addInboxItem(inboxItem("b"));
    await store.addInboxItem(inboxItem("c"));
    await store.updateInboxItem("a", {
      status: "resolved",
      response: "Back in stock",
      resolved_at: "2025-01-02T00:00:00.000Z",
    });
    await store.updateInboxItem("c", { status: "consumed", response: "done" });

    expect((await store.getInboxItems()).map((item) => [item.id, item.status])).toEqual([
      ["a", "resolved"],
      ["b", "pending"],
      ["c", "consumed"],
    ]);
    expect(await store.getResolvedInboxItems()).toEqual([
      inboxItem("a", { status: "resolved", response: "Back in stock", resolved_at: "2025-01-02T00:00:00.000Z" }),
    ]);
  });

  it("only applies the documented update fields", async () => {
    const store = new MemoryStore("s");
    await store.addInboxItem(inboxItem("a"));
    await store.updateInboxItem("a", { status: "resolved", request: "hijack" } as Parameters<
      MemoryStore["updateInboxItem"]
    >[1]);
    expect((await store.getInboxItems())[0]?.request).toBe("Tell me when a is back");
  });

  it("updateInboxItem of an unknown id throws a clear error", async () => {
    const store = new MemoryStore("s");
    await expect(store.updateInboxItem("ghost", { status: "resolved" })).rejects.toThrow(/ghost/);
  });

  it("returns copies of inbox items", async () => {
    const store = new MemoryStore("s");
    const input = inboxItem("a");
    await store.addInboxItem(input);
    input.status = "resolved";
    const read = await store.getInboxItems();
    read[0]!.response = "tampered";
    expect(await store.getInboxItems()).toEqual([inboxItem("a")]);
    expect(await store.getResolvedInboxItems()).toEqual([]);
  });
});

describe("MemoryStore.updateTask with undefined fields", () => {
  it("treats a key set to undefined as not updated", async () => {
    const store = new MemoryStore("u");
    await store.addTasks([{ id: "t", content: "Write", activeForm: "Writing", status: "pending" }]);
    await store.updateTask("t", { status: "completed", content: undefined });
    expect(await store.getTasks()).toEqual([{ id: "t", content: "Write", activeForm: "Writing", status: "completed" }]);
  });
});

describe("MemoryStore refusals (docs/decisions/0011)", () => {
  it("are MemoryStoreErrors naming the session, with GLOVE_STORE_INVALID for input no store accepts", async () => {
    const store = new MemoryStore("chat-1");
    const error = await store
      .addTasks([{ id: "t1", content: "c", activeForm: "a", status: "later" as never }])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MemoryStoreError);
    expect(error).toMatchObject({
      name: "MemoryStoreError",
      code: "GLOVE_STORE_INVALID",
      sessionId: "chat-1",
      message:
        'MemoryStore session "chat-1": task "t1": status must be pending, in_progress or completed, not "later". Nothing was changed.',
    });
    await expect(store.updateTask("nope", { status: "completed" })).rejects.toMatchObject({
      code: "GLOVE_STORE",
      name: "MemoryStoreError",
    });
    await expect(store.addTokens({ tokens_in: "12" as never, tokens_out: 0 })).rejects.toThrow(
      /tokens_in must be a non-negative integer, not "12"/,
    );
    expect(await store.getTokenCount()).toBe(0);
  });

  it("refuses empty session ids and ids holding NUL or lone surrogates", () => {
    expect(() => new MemoryStore("")).toThrow(MemoryStoreError);
    expect(() => new MemoryStore("a\u0000")).toThrow(
      /MemoryStore session "a\\u0000": sessionId must be a non-empty string fit for storage/,
    );
    expect(() => new MemoryStore("a\ud800")).toThrow(/lone surrogate/);
  });

  it("keeps messages as their JSON form, as the persistent stores read them back", async () => {
    const store = new MemoryStore("chat-2");
    const when = new Date(0);
    await store.appendMessages([
      {
        sender: "agent",
        text: "x",
        tool_calls: [{ tool_name: "t", input_args: { when, n: NaN, list: [undefined], gone: undefined } }],
      },
    ]);
    expect((await store.getMessages())[0]!.tool_calls![0]!.input_args).toStrictEqual({
      when: "1970-01-01T00:00:00.000Z",
      n: null,
      list: [null],
    });
  });
});
