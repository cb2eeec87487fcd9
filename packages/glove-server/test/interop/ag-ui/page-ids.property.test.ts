/**
 * Snapshot naming as a property: for any thread and any page (the thread's messages under the
 * page's own ids, some dropped, others the page alone holds, in any order), applying the
 * MESSAGES_SNAPSHOT named by pageIds with @ag-ui/client's own reducer leaves the page with the
 * thread's messages in the thread's order, each once; a page that holds the whole thread keeps
 * its own ids for all of it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultApplyEvents, HttpAgent } from "@ag-ui/client";
import type { BaseEvent, Message as AgUiClientMessage, RunAgentInput } from "@ag-ui/core";
import { from, lastValueFrom, toArray } from "rxjs";
import type { AgUiMessage } from "../../../src/interop/ag-ui/events.js";
import { pageIds, type PageMessage } from "../../../src/interop/ag-ui/page-ids.js";

/** A thread: user, assistant (some with a call) and tool messages; few texts, so repeats are common. */
const thread = fc
  .array(
    fc.record({
      kind: fc.constantFrom("user", "assistant", "call"),
      text: fc.constantFrom("hi", "ok", "again", ""),
    }),
    { maxLength: 12 },
  )
  .map((steps) =>
    steps.flatMap(({ kind, text }, n): AgUiMessage[] => {
      const id = `stored-${n}`;
      if (kind === "user") return [{ id, role: "user", content: text || "hi" }];
      if (kind === "assistant") return [{ id, role: "assistant", content: text }];
      const call = { id: `call-${n}`, type: "function" as const, function: { name: "f", arguments: "{}" } };
      return [
        { id, role: "assistant", content: text, toolCalls: [call] },
        { id: `${id}-result-0`, role: "tool", toolCallId: call.id, content: "done" },
      ];
    }),
  );

const asPage = (message: AgUiMessage, id: string): PageMessage => ({
  id,
  role: message.role,
  text: message.role === "tool" ? message.content : (message.content ?? ""),
  ...(message.role === "tool" ? { toolCallId: message.toolCallId } : {}),
  ...(message.role === "assistant" ? { toolCallIds: (message.toolCalls ?? []).map((c) => c.id) } : {}),
});

/** The page as the client holds it: AG-UI messages (what `messages` carries). */
const clientMessage = (page: PageMessage): AgUiClientMessage =>
  page.role === "tool"
    ? { id: page.id, role: "tool", toolCallId: page.toolCallId!, content: page.text }
    : page.role === "assistant"
      ? {
          id: page.id,
          role: "assistant",
          content: page.text,
          ...(page.toolCallIds?.length
            ? {
                toolCalls: page.toolCallIds.map((id) => ({
                  id,
                  type: "function" as const,
                  function: { name: "f", arguments: "{}" },
                })),
              }
            : {}),
        }
      : { id: page.id, role: "user", content: page.text };

/** What @ag-ui/client's reducer makes of the page after a MESSAGES_SNAPSHOT. */
async function applied(page: PageMessage[], snapshot: AgUiMessage[]): Promise<AgUiClientMessage[]> {
  const messages = page.map(clientMessage);
  const input: RunAgentInput = {
    threadId: "t",
    runId: "r",
    messages,
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
  };
  const events = from([{ type: "MESSAGES_SNAPSHOT", messages: snapshot } as unknown as BaseEvent]);
  const mutations = await lastValueFrom(
    defaultApplyEvents(input, events, new HttpAgent({ url: "http://127.0.0.1:1", initialMessages: messages }), []).pipe(
      toArray(),
    ),
  );
  return mutations.at(-1)?.messages ?? messages;
}

describe("pageIds", () => {
  it("any page ends up in the thread's order after the snapshot; known messages keep the page's ids", async () => {
    await fc.assert(
      fc.asyncProperty(
        thread,
        fc.array(fc.constantFrom("keep", "drop", "foreign"), { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        async (stored, plan, order) => {
          // The page: each thread message kept (under a page id) or dropped, foreign ones mixed in.
          let page: PageMessage[] = [];
          stored.forEach((message, i) => {
            const step = plan[i] ?? "keep";
            if (step === "foreign") page.push({ id: `foreign-${i}`, role: "user", text: "hi" });
            if (step !== "drop") page.push(asPage(message, `page-${i}`));
          });
          // Sometimes shuffled a little: a page out of step with the thread.
          for (const [n, swap] of order.entries()) {
            if (page.length < 2 || n % 3 !== 0) continue;
            const a = swap % page.length;
            page = page.map((m, i) =>
              i === a ? page[(a + 1) % page.length]! : i === (a + 1) % page.length ? page[a]! : m,
            );
          }
          const names = pageIds(stored, page);
          const snapshot = stored.map((m) => ({ ...m, id: names.get(m.id) ?? m.id }));
          const result = await applied(page, snapshot);
          expect(result.map((m) => m.id)).toEqual(snapshot.map((m) => m.id));
          // The whole thread under the page's ids: every message is named by the page's id.
          const same = pageIds(
            stored,
            stored.map((m, i) => asPage(m, `page-${i}`)),
          );
          expect(stored.map((m) => same.get(m.id))).toEqual(stored.map((_, i) => `page-${i}`));
        },
      ),
      { numRuns: 300 },
    );
  });
});
