import { describe, expect, it } from "vitest";
import { GloveError, StoreSessionError, createRecordCodec, requireSessionId, subStoreSession } from "../../src/index.js";
import type { InboxRecord, StoreErrorCode } from "../../src/index.js";

class DemoStoreError extends StoreSessionError {
  constructor(sessionId: string, detail: string, code?: string) {
    super("DemoStore", sessionId, detail, code);
  }
}

const codec = createRecordCodec({ error: (detail, code?: StoreErrorCode) => new DemoStoreError("chat-1", detail, code), where: "demo.db" });
const bare = createRecordCodec({ error: (detail, code?: StoreErrorCode) => new DemoStoreError("chat-1", detail, code) });

const inboxRow = (over: Partial<InboxRecord> = {}): InboxRecord => ({
  item_id: "i1",
  tag: "t",
  request: "r",
  response: null,
  status: "pending",
  blocking: 0,
  created_at: "2026-01-01T00:00:00Z",
  resolved_at: null,
  ...over,
});

describe("StoreSessionError", () => {
  it("names the store and session, keeps the code, and is a GloveError", () => {
    const error = new DemoStoreError("chat-1", "broken.", "GLOVE_STORE_CORRUPT");
    expect(error.message).toBe('DemoStore session "chat-1": broken.');
    expect(error.name).toBe("DemoStoreError");
    expect(error.code).toBe("GLOVE_STORE_CORRUPT");
    expect(error.sessionId).toBe("chat-1");
    expect(error).toBeInstanceOf(StoreSessionError);
    expect(GloveError.isInstance(error)).toBe(true);
    expect(new DemoStoreError("s", "x").code).toBe("GLOVE_STORE");
  });
});

describe("createRecordCodec", () => {
  it("encodes messages as JSON and refuses what JSON cannot hold", () => {
    expect(codec.encodeMessage({ sender: "user", text: "hi" })).toBe('{"sender":"user","text":"hi"}');
    const cyclic: Record<string, unknown> = { sender: "user", text: "x" };
    cyclic.self = cyclic;
    expect(() => codec.encodeMessage(cyclic as never)).toThrow(/^DemoStore session "chat-1": cannot store a message that is not JSON-serialisable/);
  });

  it("decodes message rows and reports a corrupt one with its position and table", () => {
    expect(codec.decodeMessage({ seq: 0, body: '{"sender":"agent","text":"ok"}' }, { in: "demo.db", table: "messages" })).toEqual({ sender: "agent", text: "ok" });
    const error = (() => {
      try {
        codec.decodeMessage({ seq: 3, body: "{oops" }, { in: "demo.db", table: "messages" });
      } catch (e) {
        return e as DemoStoreError;
      }
    })();
    expect(error?.code).toBe("GLOVE_STORE_CORRUPT");
    expect(error?.message).toMatch(/^DemoStore session "chat-1": message 3 in demo\.db is corrupt: the body is not valid JSON.*repair that row of messages \(session_id, seq\)/);
    expect(() => codec.decodeMessage({ seq: 1, body: null }, { in: "demo.messages" })).toThrow(
      /message 1 in demo\.messages is corrupt: the body is NULL, not JSON text\. Nothing was changed or deleted; repair that row \(session_id, seq\) to continue\./,
    );
  });

  it("checks task statuses both ways and merges only defined update fields", () => {
    const task = { id: "t1", content: "c", activeForm: "a", status: "pending" as const };
    expect(codec.checkTask(task)).toBe(task);
    expect(() => codec.checkTask({ ...task, status: "later" as never })).toThrow(/task "t1" has status "later"; expected pending, in_progress or completed/);
    expect(codec.decodeTask({ task_id: "t1", content: "c", active_form: "a", status: "pending" })).toEqual(task);
    expect(() => codec.decodeTask({ task_id: "t1", content: "c", active_form: "a", status: "later" })).toThrow(/task "t1" in demo\.db is corrupt \(status "later"\)\. Nothing was changed\./);
    expect(() => bare.decodeTask({ task_id: "t1", content: 1, active_form: "a", status: "pending" })).toThrow(/task "t1" is corrupt/);
    expect(codec.mergeTaskUpdate(task, "t1", { status: "completed", content: undefined, id: "other" })).toEqual({ ...task, status: "completed" });
    expect(() => codec.mergeTaskUpdate(undefined, "t9", {})).toThrow(/cannot update task "t9": no task has that id/);
  });

  it("reads a missing permission as unset and refuses unknown statuses", () => {
    expect(codec.decodePermission("tool", undefined)).toBe("unset");
    expect(codec.decodePermission("tool", "granted")).toBe("granted");
    expect(() => codec.decodePermission("tool", "maybe")).toThrow(/the permission of "tool" in demo\.db is corrupt \("maybe"\)/);
    expect(() => codec.checkPermission("maybe" as never)).toThrow(/permission status must be granted, denied or unset, not "maybe"/);
  });

  it("decodes inbox rows with 0/1 or boolean blocking and reports corrupt ones", () => {
    const item = { id: "i1", tag: "t", request: "r", response: null, status: "pending", blocking: false, created_at: "2026-01-01T00:00:00Z", resolved_at: null };
    expect(codec.decodeInboxItem(inboxRow())).toEqual(item);
    expect(codec.decodeInboxItem(inboxRow({ blocking: true }))).toEqual({ ...item, blocking: true });
    expect(codec.decodeInboxItem(inboxRow({ blocking: 1 }))).toEqual({ ...item, blocking: true });
    expect(() => codec.decodeInboxItem(inboxRow({ blocking: 2 }))).toThrow(/inbox item "i1" in demo\.db is corrupt \(status "pending", blocking 2\)/);
    expect(() => bare.decodeInboxItem(inboxRow({ status: "lost" }))).toThrow(/^DemoStore session "chat-1": inbox item "i1" is corrupt \(status "lost"/);
    expect(() => codec.checkInboxItem({ ...item, status: "lost" as never })).toThrow(/inbox item "i1" has status "lost"/);
    expect(() => codec.checkInboxUpdate({ status: "lost" as never })).toThrow(/inbox status must be pending, resolved or consumed, not "lost"/);
    expect(codec.checkInboxUpdate({ response: "x" })).toEqual({ response: "x" });
    expect(codec.missingInboxItem("i9").message).toMatch(/cannot update inbox item "i9": no item has that id in this session/);
  });
});

describe("requireSessionId and subStoreSession", () => {
  it("accepts only a non-empty string session id", () => {
    expect(requireSessionId("DemoStore", "s")).toBe("s");
    expect(() => requireSessionId("DemoStore", "")).toThrow(new TypeError("DemoStore: sessionId must be a non-empty string."));
    expect(() => requireSessionId("DemoStore", 7)).toThrow(TypeError);
  });

  it("names durable sub-stores by namespace and ephemeral ones with a fresh id", () => {
    const parent = { identifier: "chat" };
    expect(subStoreSession(parent, "planner", true, () => "x")).toEqual({
      sessionId: "chat::planner",
      child: { parentId: "chat", namespace: "planner", durable: true },
    });
    expect(subStoreSession(parent, "reviewer", false, () => "abc").sessionId).toBe("chat::reviewer~abc");
  });
});
