import { describe, expect, it } from "vitest";
import {
  GloveError,
  StoreSessionError,
  createRecordCodec,
  requireSessionId,
  subStoreSession,
} from "../../src/index.js";
import type { InboxRecord, StoreErrorCode } from "../../src/index.js";

class DemoStoreError extends StoreSessionError {
  constructor(sessionId: string, detail: string, code?: string) {
    super("DemoStore", sessionId, detail, code);
  }
}

const codec = createRecordCodec({
  error: (detail, code?: StoreErrorCode) => new DemoStoreError("chat-1", detail, code),
  where: "demo.db",
});
const bare = createRecordCodec({
  error: (detail, code?: StoreErrorCode) => new DemoStoreError("chat-1", detail, code),
});

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
    expect(() => codec.encodeMessage(cyclic as never)).toThrow(
      /^DemoStore session "chat-1": cannot store the message: the message is not JSON-serialisable/,
    );
    expect(
      codec.encodeMessage({
        sender: "user",
        text: "a\u0000b\ud800",
        tool_calls: [{ tool_name: "t", input_args: [NaN, undefined, new Date(0)] }],
      }),
    ).toBe(
      '{"sender":"user","text":"a\\u0000b\\ud800","tool_calls":[{"tool_name":"t","input_args":[null,null,"1970-01-01T00:00:00.000Z"]}]}',
    );
  });

  it("refuses messages no store can keep with GLOVE_STORE_INVALID, naming the message and the field", () => {
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as DemoStoreError;
      }
      throw new Error("not refused");
    };
    const ok = { sender: "user" as const, text: "ok" };
    const cases: Array<[unknown[], RegExp]> = [
      [[ok, { sender: "robot", text: "x" }], /message 1\.sender must be "user" or "agent", not "robot"/],
      [[{ sender: "agent", text: 5 }], /message 0\.text must be a string, not 5/],
      [[{ ...ok, is_compaction: 1 }], /message 0\.is_compaction must be true or false when present, not 1/],
      [
        [{ ...ok, is_skill_injection: "yes" }],
        /message 0\.is_skill_injection must be true or false when present, not "yes"/,
      ],
      [
        [{ ...ok, is_compaction_request: null }],
        /message 0\.is_compaction_request must be true or false when present, not null/,
      ],
      [[{ ...ok, id: 3 }], /message 0\.id must be a string when present, not 3/],
      [[{ ...ok, tool_calls: {} }], /message 0\.tool_calls must be an array when present, not an object/],
      [
        [{ ...ok, tool_calls: [{ input_args: {} }] }],
        /message 0\.tool_calls\[0\]\.tool_name must be a string, not undefined/,
      ],
      [
        [{ ...ok, tool_results: [{ tool_name: "t", result: "done" }] }],
        /message 0\.tool_results\[0\]\.result must be an object, not "done"/,
      ],
      [[{ ...ok, content: [{ text: "x" }] }], /message 0\.content\[0\]\.type must be a string, not undefined/],
      [
        [{ ...ok, tool_calls: [{ tool_name: "t", input_args: 10n }] }],
        /cannot store message 0: the message is not JSON-serialisable/,
      ],
      [[new Date()], /message 0 has a toJSON method; pass plain data/],
    ];
    for (const [batch, pattern] of cases) {
      const error = refused(() => codec.encodeMessages(batch as never));
      expect(error.code).toBe("GLOVE_STORE_INVALID");
      expect(error.message).toMatch(pattern);
      expect(error.message).toMatch(/Nothing was changed\.$/);
    }
  });

  it("checks token counts: non-negative integers whose total stays within 2^53 - 1", () => {
    expect(codec.checkTokens({ tokens_in: 3, tokens_out: 0 })).toEqual({ tokens_in: 3, tokens_out: 0 });
    for (const bad of ["12", NaN, 1.5, -1, Infinity, null, undefined, 2 ** 53]) {
      expect(() => codec.checkTokens({ tokens_in: bad as number, tokens_out: 0 })).toThrow(
        /tokens_in must be a non-negative integer/,
      );
    }
    expect(() => codec.checkTokens({ tokens_in: Number.MAX_SAFE_INTEGER, tokens_out: 1 })).toThrow(
      /tokens_in \+ tokens_out is past 9007199254740991/,
    );
    expect(() => codec.checkTokenTotal(Number.MAX_SAFE_INTEGER - 1, { tokens_in: 1, tokens_out: 0 })).not.toThrow();
    expect(() => codec.checkTokenTotal(Number.MAX_SAFE_INTEGER - 1, { tokens_in: 1, tokens_out: 1 })).toThrow(
      /would take its token count past 9007199254740991/,
    );
  });

  it("decodes message rows and reports a corrupt one with its position and table", () => {
    expect(
      codec.decodeMessage({ seq: 0, body: '{"sender":"agent","text":"ok"}' }, { in: "demo.db", table: "messages" }),
    ).toEqual({ sender: "agent", text: "ok" });
    const error = (() => {
      try {
        codec.decodeMessage({ seq: 3, body: "{oops" }, { in: "demo.db", table: "messages" });
      } catch (e) {
        return e as DemoStoreError;
      }
    })();
    expect(error?.code).toBe("GLOVE_STORE_CORRUPT");
    expect(error?.message).toMatch(
      /^DemoStore session "chat-1": message 3 in demo\.db is corrupt: the body is not valid JSON.*repair that row of messages \(session_id, seq\)/,
    );
    expect(() => codec.decodeMessage({ seq: 1, body: null }, { in: "demo.messages" })).toThrow(
      /message 1 in demo\.messages is corrupt: the body is NULL, not JSON text\. Nothing was changed or deleted; repair that row \(session_id, seq\) to continue\./,
    );
  });

  it("checks task statuses both ways and merges only defined update fields", () => {
    const task = { id: "t1", content: "c", activeForm: "a", status: "pending" as const };
    expect(codec.checkTask(task)).toEqual(task);
    expect(codec.checkTask({ ...task, extra: 1 } as never)).toEqual(task);
    expect(() => codec.checkTask({ ...task, status: "later" as never })).toThrow(
      /task "t1": status must be pending, in_progress or completed, not "later"/,
    );
    expect(() => codec.checkTask({ ...task, content: 5 as never })).toThrow(
      /task "t1": content must be a string, not 5/,
    );
    expect(() => codec.checkTask({ ...task, id: "t\u0000" })).toThrow(
      /task "t\\u0000": id contains a NUL character \(\\u0000\) at index 1, which PostgreSQL cannot store/,
    );
    expect(() => codec.checkTask({ ...task, activeForm: "x\udc00" })).toThrow(
      /activeForm contains a lone surrogate \(\\udc00\) at index 1, which UTF-8 cannot encode/,
    );
    expect(codec.checkTask({ ...task, content: "astral 😀 ok" }).content).toBe("astral 😀 ok");
    expect(codec.decodeTask({ task_id: "t1", content: "c", active_form: "a", status: "pending" })).toEqual(task);
    expect(() => codec.decodeTask({ task_id: "t1", content: "c", active_form: "a", status: "later" })).toThrow(
      /task "t1" in demo\.db is corrupt \(status "later"\)\. Nothing was changed\./,
    );
    expect(() => bare.decodeTask({ task_id: "t1", content: 1, active_form: "a", status: "pending" })).toThrow(
      /task "t1" is corrupt/,
    );
    expect(codec.mergeTaskUpdate(task, "t1", { status: "completed", content: undefined, id: "other" })).toEqual({
      ...task,
      status: "completed",
    });
    expect(codec.mergeTaskUpdate(task, "t1", { foo: 1 } as never)).toEqual(task);
    expect(() => codec.mergeTaskUpdate(task, "t1", { status: "later" as never })).toThrow(/status must be pending/);
    expect(() => codec.mergeTaskUpdate(undefined, "t9", {})).toThrow(/cannot update task "t9": no task has that id/);
  });

  it("reads a missing permission as unset and refuses unknown statuses", () => {
    expect(codec.decodePermission("tool", undefined)).toBe("unset");
    expect(codec.decodePermission("tool", "granted")).toBe("granted");
    expect(() => codec.decodePermission("tool", "maybe")).toThrow(
      /the permission of "tool" in demo\.db is corrupt \("maybe"\)/,
    );
    expect(() => codec.checkPermission("maybe" as never)).toThrow(
      /permission status must be granted, denied or unset, not "maybe"/,
    );
  });

  it("decodes inbox rows with 0/1 or boolean blocking and reports corrupt ones", () => {
    const item = {
      id: "i1",
      tag: "t",
      request: "r",
      response: null,
      status: "pending",
      blocking: false,
      created_at: "2026-01-01T00:00:00Z",
      resolved_at: null,
    };
    expect(codec.decodeInboxItem(inboxRow())).toEqual(item);
    expect(codec.decodeInboxItem(inboxRow({ blocking: true }))).toEqual({ ...item, blocking: true });
    expect(codec.decodeInboxItem(inboxRow({ blocking: 1 }))).toEqual({ ...item, blocking: true });
    expect(() => codec.decodeInboxItem(inboxRow({ blocking: 2 }))).toThrow(
      /inbox item "i1" in demo\.db is corrupt \(status "pending", blocking 2\)/,
    );
    expect(() => bare.decodeInboxItem(inboxRow({ status: "lost" }))).toThrow(
      /^DemoStore session "chat-1": inbox item "i1" is corrupt \(status "lost"/,
    );
    expect(() => codec.checkInboxItem({ ...item, status: "lost" as never })).toThrow(
      /inbox item "i1": status must be pending, resolved or consumed, not "lost"/,
    );
    expect(() => codec.checkInboxItem({ ...item, blocking: 1 } as never)).toThrow(
      /inbox item "i1": blocking must be true or false, not 1/,
    );
    expect(() => codec.checkInboxItem({ ...item, blocking: undefined } as never)).toThrow(
      /blocking must be true or false, not undefined/,
    );
    const { response: _r, resolved_at: _a, ...partial } = item;
    expect(codec.checkInboxItem({ ...partial, extra: true } as never)).toEqual(item);
    expect(() => codec.checkInboxUpdate({ response: 5 as never })).toThrow(
      /the inbox response must be a string, not 5/,
    );
    expect(() => codec.checkInboxUpdate({ status: "lost" as never })).toThrow(
      /inbox status must be pending, resolved or consumed, not "lost"/,
    );
    expect(codec.checkInboxUpdate({ response: "x" })).toEqual({ response: "x" });
    expect(codec.missingInboxItem("i9").message).toMatch(
      /cannot update inbox item "i9": no item has that id in this session/,
    );
  });
});

describe("requireSessionId and subStoreSession", () => {
  it("accepts only a non-empty string session id", () => {
    expect(requireSessionId("DemoStore", "s")).toBe("s");
    const refusal = (id: unknown) => {
      try {
        requireSessionId("DemoStore", id);
      } catch (e) {
        return e as StoreSessionError;
      }
      throw new Error("not refused");
    };
    expect(refusal("").message).toBe(
      'DemoStore session "": sessionId must be a non-empty string fit for storage: the session id must not be empty. Pass another session id (a UUID will do). Nothing was changed.',
    );
    expect(refusal("").code).toBe("GLOVE_STORE_INVALID");
    expect(refusal(7).message).toMatch(/the session id must be a string, not 7/);
    expect(refusal("a\ud800").message).toBe(
      'DemoStore session "a\\ud800": sessionId must be a non-empty string fit for storage: the session id contains a lone surrogate (\\ud800) at index 1, which UTF-8 cannot encode. Pass another session id (a UUID will do). Nothing was changed.',
    );
    expect(refusal("a\u0000").sessionId).toBe("a\\u0000");
    expect(() =>
      requireSessionId("DemoStore", 7, (id, detail) => new DemoStoreError(id, detail, "GLOVE_STORE_INVALID")),
    ).toThrow(DemoStoreError);
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
