/**
 * The event mapping as a property: for any run of Glove events (streamed text in any pieces, tool
 * calls and results, shown slots, tasks, inbox, and a subagent's events), the AG-UI events
 * validate against @ag-ui/core's schemas, pass @ag-ui/client's own stream verifier (starts before
 * contents, ends after, nothing left open), keep the text exactly, and carry every call once.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { verifyEvents } from "@ag-ui/client";
import type { BaseEvent } from "@ag-ui/core";
import { from, lastValueFrom, toArray } from "rxjs";
import { AgUiEventMapper } from "../../../src/interop/ag-ui/event-mapper.js";
import type { AgUiEvent } from "../../../src/interop/ag-ui/events.js";
import type { NativeEvent } from "../../../src/interop/shared/native-events.js";
import { validated } from "./support/ag-ui-client.js";

const slot = (id: string, mode: "wait" | "forget") => ({
  id,
  renderer: "card",
  input: { n: 1 },
  toolName: "show",
  toolCallId: "c",
  displayStrategy: null,
  mode,
  status: "pending",
});

/** One Glove event, with `n` to make ids unique within a run. */
const gloveEvent = (n: number): fc.Arbitrary<Omit<NativeEvent, "id">> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.string({ maxLength: 12 }).map((text) => ({ type: "text_delta", data: { text } })) },
    {
      weight: 2,
      arbitrary: fc
        .jsonValue({ maxDepth: 2 })
        .map((input) => ({ type: "tool_use", data: { id: `call-${n}`, name: "lookup", input } })),
    },
    {
      weight: 2,
      arbitrary: fc
        .record({
          status: fc.constantFrom("success", "error", "aborted"),
          data: fc.jsonValue({ maxDepth: 2 }),
          message: fc.option(fc.string(), { nil: undefined }),
        })
        .map((result) => ({ type: "tool_use_result", data: { tool_name: "lookup", call_id: `call-${n}`, result } })),
    },
    { weight: 2, arbitrary: fc.constant({ type: "model_response_complete", data: { text: "" } }) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("wait", "forget")
        .map((mode) => ({ type: "slot_push", data: { slot: slot(`slot-${n}`, mode as "wait" | "forget") } })),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })
        .map((tasks) => ({ type: "tasks", data: { tasks } })),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })
        .map((items) => ({ type: "inbox", data: { items } })),
    },
    {
      weight: 1,
      arbitrary: fc
        .string({ minLength: 1, maxLength: 5 })
        .map((text) => ({ type: "text_delta", data: { text, agentPath: ["helper"] } })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("turn_start", "hook_invoked", "compaction_start", "slot_settled")
        .map((type) => ({ type, data: {} })),
    },
    // A model call retried: not part of the answer, so it maps to nothing and breaks no sequence.
    {
      weight: 1,
      arbitrary: fc
        .record({ attempt: fc.nat(3), status: fc.constantFrom(0, 429, 503) })
        .map((r) => ({ type: "model_retry", data: { provider: "openai", delay_ms: 0, reason: "busy", ...r } })),
    },
  );

const runOfEvents = fc
  .integer({ min: 0, max: 40 })
  .chain((length) => fc.tuple(...Array.from({ length }, (_, n) => gloveEvent(n))));

function mapRun(events: Array<Omit<NativeEvent, "id">>): AgUiEvent[] {
  let next = 0;
  const mapper = new AgUiEventMapper(() => `m-${next++}`);
  const out: AgUiEvent[] = [{ type: "RUN_STARTED", threadId: "t", runId: "r", protocolVersion: "1.0" }];
  events.forEach((event, id) => out.push(...mapper.map({ id, ...event })));
  out.push(...mapper.close(), { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "success" } });
  return out;
}

describe("AG-UI event mapping (property)", () => {
  it("yields valid, well-ordered AG-UI streams that keep the text and every call", async () => {
    await fc.assert(
      fc.asyncProperty(runOfEvents, async (events) => {
        const mapped = mapRun(events);
        const checked = mapped.map((event) => validated(event));
        // The official client's verifier throws on a content event outside its start/end, a duplicate start, events after the end…
        const verified = await lastValueFrom(from(checked).pipe(verifyEvents(false), toArray()));
        expect(verified).toHaveLength(mapped.length);

        const topLevel = events.filter((e) => e.data.agentPath === undefined);
        const text = topLevel
          .filter((e) => e.type === "text_delta")
          .map((e) => e.data.text)
          .join("");
        const streamed = mapped.flatMap((e) => (e.type === "TEXT_MESSAGE_CONTENT" ? [e.delta] : [])).join("");
        expect(streamed).toBe(text);

        const calls = topLevel.filter((e) => e.type === "tool_use");
        const starts = mapped.filter((e) => e.type === "TOOL_CALL_START");
        expect(starts.map((e) => e.toolCallId)).toEqual(calls.map((e) => e.data.id));
        for (const call of calls) {
          const args = mapped.find((e) => e.type === "TOOL_CALL_ARGS" && e.toolCallId === call.data.id);
          expect(args?.type === "TOOL_CALL_ARGS" && JSON.parse(args.delta)).toEqual(
            JSON.parse(JSON.stringify(call.data.input ?? {})),
          );
        }
        expect(mapped.filter((e) => e.type === "TOOL_CALL_RESULT")).toHaveLength(
          topLevel.filter((e) => e.type === "tool_use_result").length,
        );
        // Only slots shown without waiting become activities; questions end runs instead (run-stream.ts).
        expect(mapped.filter((e) => e.type === "ACTIVITY_SNAPSHOT")).toHaveLength(
          topLevel.filter((e) => e.type === "slot_push" && (e.data.slot as { mode: string }).mode === "forget").length,
        );
      }),
      { numRuns: 300 },
    );
  });

  it("an empty text delta opens nothing; text after a call is a new message", () => {
    const mapped = mapRun([
      { type: "text_delta", data: { text: "" } },
      { type: "text_delta", data: { text: "Looking" } },
      { type: "tool_use", data: { id: "c1", name: "lookup", input: { q: 1 } } },
      { type: "text_delta", data: { text: "Found" } },
    ]);
    expect(mapped.map((e) => e.type)).toEqual([
      "RUN_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "TOOL_CALL_START",
      "TOOL_CALL_ARGS",
      "TOOL_CALL_END",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "RUN_FINISHED",
    ]);
    const [first, second] = mapped.filter(
      (e): e is Extract<AgUiEvent, { type: "TEXT_MESSAGE_START" }> => e.type === "TEXT_MESSAGE_START",
    );
    expect(first!.messageId).not.toBe(second!.messageId);
    expect(mapped.find((e) => e.type === "TOOL_CALL_START")).toMatchObject({ parentMessageId: first!.messageId });
    expect(mapped.every((e: AgUiEvent | BaseEvent) => validated(e))).toBe(true);
  });
});
