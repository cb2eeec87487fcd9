import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_KEY_BYTES, MemoryStore, MemoryStoreError } from "../../src/index.js";
import { keyProblem, utf8Length } from "../../src/stores/store-ids.js";

describe("keys every store keeps", () => {
  it("property: utf8Length is the UTF-8 length of any well-formed string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (value) => {
        expect(utf8Length(value)).toBe(new TextEncoder().encode(value).length);
      }),
    );
  });

  it("refuses keys past 1024 UTF-8 bytes, counting bytes rather than characters", () => {
    expect(MAX_KEY_BYTES).toBe(1024);
    expect(keyProblem("the task id", "東".repeat(341) + "a")).toBeUndefined();
    expect(keyProblem("the task id", "東".repeat(342))).toBe(
      "the task id is 1026 bytes long in UTF-8, more than the 1024 a store keeps as a key; use a shorter one (e.g. a hash of it)",
    );
    expect(keyProblem("the task id", "a\u0000")).toMatch(/NUL character/);
  });

  it("names a long session id shortened, in a typed error that says what to do", () => {
    const error = (() => {
      try {
        return new MemoryStore(`chat-${"x".repeat(2000)}`);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(MemoryStoreError);
    expect(error).toMatchObject({ code: "GLOVE_STORE_INVALID" });
    const message = (error as Error).message;
    expect(message).toMatch(
      /^MemoryStore session "chat-x{75}…": sessionId must be a non-empty string fit for storage: the session id is 2005 bytes long in UTF-8/,
    );
    expect(message.length).toBeLessThan(400);
  });

  it("refuses a long task id, inbox id or tool name before anything changes", async () => {
    const store = new MemoryStore("keys");
    const long = "é".repeat(513);
    await expect(
      store.addTasks([{ id: long, content: "c", activeForm: "a", status: "pending" }]),
    ).rejects.toMatchObject({ code: "GLOVE_STORE_INVALID" });
    await expect(store.updateTask(long, { status: "completed" })).rejects.toMatchObject({
      code: "GLOVE_STORE_INVALID",
    });
    await expect(
      store.addInboxItem({
        id: long,
        tag: "t",
        request: "r",
        response: null,
        status: "pending",
        blocking: false,
        created_at: "now",
        resolved_at: null,
      }),
    ).rejects.toMatchObject({ code: "GLOVE_STORE_INVALID" });
    await expect(store.setPermission(long, "granted")).rejects.toMatchObject({ code: "GLOVE_STORE_INVALID" });
    await expect(store.getPermission(long)).rejects.toMatchObject({ code: "GLOVE_STORE_INVALID" });
    await expect(store.createSubAgentStore(long, true)).rejects.toMatchObject({ code: "GLOVE_STORE_INVALID" });
    expect(await store.getTasks()).toEqual([]);
    expect(await store.getInboxItems()).toEqual([]);
  });

  it("keeps message and tool call ids of any length: they are message data, not keys", async () => {
    const store = new MemoryStore("data");
    const id = "東".repeat(2000);
    await store.appendMessages([
      { sender: "agent", id, text: "", tool_calls: [{ tool_name: "t", id, input_args: {} }] },
    ]);
    expect((await store.getMessages())[0]?.tool_calls?.[0]?.id).toBe(id);
  });
});
