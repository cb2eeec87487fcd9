import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "glove-core";
import {
  buildTimeline,
  initialState,
  reduce,
  type ConversationSnapshot,
  type GloveAction,
  type GloveState,
  type WireSlot,
} from "glove-client";

const callId = fc.constantFrom("c1", "c2", "c3", "c4");
const slotId = fc.constantFrom("s1", "s2", "s3");
const text = fc.string({ maxLength: 6 });
const status = fc.constantFrom("success" as const, "error" as const, "aborted" as const);

const message: fc.Arbitrary<Message> = fc.oneof(
  text.map((t): Message => ({ sender: "user", text: t })),
  fc.record({ text, calls: fc.uniqueArray(callId, { maxLength: 2 }) }).map(({ text: t, calls }): Message => ({
    sender: "agent",
    text: t,
    ...(calls.length ? { tool_calls: calls.map((id) => ({ id, tool_name: "tool", input_args: {} })) } : {}),
  })),
  fc.record({ id: callId, status }).map(({ id, status: s }): Message => ({
    sender: "user",
    text: "",
    tool_results: [{ tool_name: "tool", call_id: id, result: { status: s, data: "d" } }],
  })),
  text.map((t): Message => ({ sender: "user", text: t, is_compaction: true })),
  text.map((t): Message => ({ sender: "user", text: t, is_skill_injection: true })),
);

const wireSlot: fc.Arbitrary<WireSlot> = fc.record({
  id: slotId,
  renderer: fc.constantFrom("ask", "permission_request"),
  input: fc.constant({}),
  toolName: fc.constantFrom("ask", null),
  toolCallId: fc.option(callId, { nil: null }),
  displayStrategy: fc.constantFrom("stay" as const, "hide-on-complete" as const, "hide-on-new" as const, null),
  mode: fc.constantFrom("wait" as const, "forget" as const),
  status: fc.constantFrom("pending" as const, "shown" as const, "resolved" as const, "closed" as const),
});

const snapshot: fc.Arbitrary<ConversationSnapshot> = fc.record({
  id: fc.constant("conv"),
  messages: fc.array(message, { maxLength: 6 }),
  slots: fc.uniqueArray(wireSlot, { selector: (s) => s.id, maxLength: 3 }),
  tasks: fc.constant([]),
  inbox: fc.constant([]),
  busy: fc.boolean(),
  turnId: fc.option(fc.constant("t"), { nil: null }),
  streamingText: text,
  lastEventId: fc.constant(null),
});

const action: fc.Arbitrary<GloveAction> = fc.oneof(
  { weight: 4, arbitrary: text.map((t): GloveAction => ({ type: "text_delta", text: t })) },
  { weight: 2, arbitrary: callId.map((id): GloveAction => ({ type: "tool_use", id, name: "tool", input: {} })) },
  {
    weight: 2,
    arbitrary: fc.record({ id: callId, status }).map(({ id, status: s }): GloveAction => ({
      type: "tool_use_result",
      tool_name: "tool",
      call_id: id,
      result: { status: s, data: 1 },
    })),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({ messages: fc.array(message, { minLength: 1, maxLength: 3 }), startIndex: fc.nat(8) })
      .map((a): GloveAction => ({ type: "messages_appended", ...a })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ messages: fc.array(message, { maxLength: 3 }), keep: fc.nat(8) })
      .map((a): GloveAction => ({ type: "branches_changed", ...a, points: [] })),
  },
  { weight: 1, arbitrary: fc.constant<GloveAction>({ type: "turn_start", turnId: "t" }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("done" as const, "aborted" as const, "error" as const, "waiting" as const)
      .map((s): GloveAction => ({ type: "turn_end", turnId: "t", status: s })),
  },
  { weight: 2, arbitrary: wireSlot.map((slot): GloveAction => ({ type: "slot_push", slot })) },
  {
    weight: 2,
    arbitrary: fc
      .record({ slotId, status: fc.constantFrom("resolved" as const, "rejected" as const, "closed" as const) })
      .map((a): GloveAction => ({ type: "slot_settled", ...a })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ id: fc.constantFrom("m1", "m2"), text })
      .map(({ id, text: t }): GloveAction => ({ type: "user_message_queued", clientMessageId: id, text: t })),
  },
  { weight: 1, arbitrary: snapshot.map((s): GloveAction => ({ type: "snapshot", snapshot: s })) },
);

/** What streamingText must be: every delta since the last point that ends a model call's text. */
function expectedText(actions: GloveAction[]): string {
  let out = "";
  for (const a of actions) {
    if (a.type === "text_delta") out += a.text;
    else if (a.type === "messages_appended" && a.messages.some((m) => m.sender === "agent")) out = "";
    else if (a.type === "turn_end") out = "";
    else if (a.type === "snapshot") out = a.snapshot.streamingText;
  }
  return out;
}

const FINAL = new Set(["resolved", "rejected", "closed"]);

describe("reducer properties (random event sequences)", () => {
  it("keeps keys and slot ids unique, text equal to the deltas, and settled slots settled", () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 40 }), (actions) => {
        let state: GloveState = initialState();
        actions.forEach((a, i) => {
          const before = state;
          state = reduce(state, a);
          const keys = buildTimeline(state).map((e) => e.key);
          expect(new Set(keys).size).toBe(keys.length);
          const slotIds = state.slots.map((s) => s.id);
          expect(new Set(slotIds).size).toBe(slotIds.length);
          expect(state.streamingText).toBe(expectedText(actions.slice(0, i + 1)));
          // A settled slot never reopens — unless a snapshot (the server's truth) says otherwise.
          if (a.type !== "snapshot") {
            for (const slot of before.slots) {
              if (!FINAL.has(slot.status)) continue;
              const now = state.slots.find((s) => s.id === slot.id);
              if (now) expect(now.status).toBe(slot.status);
            }
          }
          // Slot order numbers only grow.
          const seqs = state.slots.map((s) => s.seq);
          expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
        });
      }),
      { numRuns: 400 },
    );
  });

  it("leaves no tool entry running once a turn has ended, but a call whose question still waits for a person", () => {
    fc.assert(
      fc.property(
        fc.array(action, { maxLength: 30 }),
        fc.constantFrom("done" as const, "waiting" as const),
        (actions, status) => {
          const state = [...actions, { type: "turn_end", turnId: "t", status } as GloveAction].reduce(
            reduce,
            initialState(),
          );
          const asking = new Set(
            state.slots.filter((s) => s.mode === "wait" && s.status === "pending").map((s) => s.toolCallId),
          );
          for (const entry of buildTimeline(state)) {
            if (entry.kind === "tool" && entry.status === "running") expect(asking.has(entry.id)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a reconnect snapshot followed by overlapping replays converges to the same transcript, without duplicates", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(message, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.nat(),
        (batches, cutAt, overlap) => {
          const appends: GloveAction[] = [];
          let length = 0;
          for (const messages of batches) {
            appends.push({ type: "messages_appended", messages, startIndex: length });
            length += messages.length;
          }
          const history = batches.flat();
          const direct = appends.reduce(reduce, initialState());
          const cut = cutAt % (appends.length + 1);
          const from = Math.max(0, cut - (overlap % 3)); // replays the snapshot already covers
          const snap: ConversationSnapshot = {
            id: "conv",
            messages: appends.slice(0, cut).flatMap((a) => (a as { messages: Message[] }).messages),
            slots: [],
            tasks: [],
            inbox: [],
            busy: false,
            turnId: null,
            streamingText: "",
          };
          const resumed = [
            ...appends.slice(0, Math.min(cut, 1)),
            { type: "snapshot", snapshot: snap } as GloveAction,
            ...appends.slice(from),
          ].reduce(reduce, initialState());
          expect(resumed.messages).toEqual(history);
          expect(buildTimeline(resumed)).toEqual(buildTimeline(direct));
          // The same snapshot twice changes nothing.
          const twice = reduce(reduce(direct, { type: "snapshot", snapshot: { ...snap, messages: history } }), {
            type: "snapshot",
            snapshot: { ...snap, messages: history },
          });
          expect(buildTimeline(twice)).toEqual(buildTimeline(direct));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a tab that follows appends and branch changes (regenerate, edit, switch) holds the server's active branch, also after a snapshot and overlapping replays", () => {
    type Change = { keep: number | undefined; messages: Message[] };
    const change: fc.Arbitrary<Change> = fc.record({
      keep: fc.option(fc.nat(10), { nil: undefined }),
      messages: fc.array(message, { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 12 }), fc.nat(), fc.nat(), (changes, cutAt, overlap) => {
        // The server's active branch after each change, and the events it sent.
        let branch: Message[] = [];
        const events: GloveAction[] = [];
        const states: Message[][] = [];
        for (const { keep, messages } of changes) {
          if (keep === undefined) {
            if (messages.length === 0) continue;
            events.push({ type: "messages_appended", messages, startIndex: branch.length });
            branch = [...branch, ...messages];
          } else {
            const kept = Math.min(keep, branch.length);
            events.push({ type: "branches_changed", keep: kept, messages, points: [] });
            branch = [...branch.slice(0, kept), ...messages];
          }
          states.push(branch);
        }
        expect(events.reduce(reduce, initialState()).messages).toEqual(branch);
        // A reconnect: the snapshot at some event, then a replay that starts a little earlier.
        const cut = cutAt % (events.length + 1);
        const snap: ConversationSnapshot = {
          id: "conv",
          messages: cut === 0 ? [] : states[cut - 1]!,
          slots: [],
          tasks: [],
          inbox: [],
          busy: false,
          turnId: null,
          streamingText: "",
        };
        const from = Math.max(0, cut - (overlap % 3));
        const resumed = [{ type: "snapshot", snapshot: snap } as GloveAction, ...events.slice(from)].reduce(
          reduce,
          initialState(),
        );
        expect(resumed.messages).toEqual(branch);
      }),
      { numRuns: 300 },
    );
  });

  it("reconciles each optimistic message with exactly one stored copy", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }),
        (texts) => {
          let state = initialState();
          texts.forEach(
            (t, i) => (state = reduce(state, { type: "user_message_queued", clientMessageId: `m${i}`, text: t })),
          );
          texts.forEach(
            (t, i) =>
              (state = reduce(state, {
                type: "messages_appended",
                messages: [
                  { sender: "user", text: t },
                  { sender: "agent", text: "ok" },
                ],
                startIndex: i * 2,
              })),
          );
          const users = buildTimeline(state).filter((e) => e.kind === "user");
          expect(users.map((u) => u.key)).toEqual(texts.map((_, i) => `user:m${i}`));
          expect(state.pending).toEqual([]);
        },
      ),
    );
  });
});
