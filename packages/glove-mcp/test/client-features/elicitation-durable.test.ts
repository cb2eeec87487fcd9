/**
 * An MCP server's elicitation during a durable bridged call is a stored question (decision 0023):
 * recorded before it is shown, its answer recorded, listed by another Glove over the same store
 * after the first went away; answering there re-sends the call, whose new elicitation meets the
 * recorded answer and shows nothing.
 */
import { describe, expect, it } from "vitest";
import type { StoredWait } from "glove-core";
import type { ScriptedStep } from "glove-core/testing";
import { bridgeMcpTool, MCP_ELICITATION_RENDERER, type McpTool } from "glove-mcp";
import { featureServerFixture, type Mounted } from "./harness.js";

const server = featureServerFixture();

const bookTable = { toolCalls: [{ name: "feat__book_table", input: {}, id: "b1" }] };

/**
 * A first Glove whose call got as far as the elicitation (its slot id), then went away, and a
 * second one over the same store with its own connection to the server, whose model plays `steps`.
 */
async function abandonedElicitation(
  steps: ScriptedStep[],
): Promise<{ first: Mounted; second: Mounted; slotId: string }> {
  const first = await server.mount({ serverMode: false, clientFeatures: { elicitation: true }, steps: [bookTable] });
  void first.glove.processRequest("Book a table.").catch(() => undefined);
  let slot = first.dm.stack.find((s) => s.renderer === MCP_ELICITATION_RENDERER);
  while (!slot) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    slot = first.dm.stack.find((s) => s.renderer === MCP_ELICITATION_RENDERER);
  }
  const second = await server.mount({
    serverMode: false,
    clientFeatures: { elicitation: true },
    steps,
    store: first.store,
  });
  return { first, second, slotId: slot.id };
}

describe("an elicitation during a durable bridged call", () => {
  it("is stored before it is shown, tagged with the call, and its answer is recorded", async () => {
    const m = await server.mount({
      serverMode: false,
      clientFeatures: { elicitation: true },
      steps: [bookTable, { text: "done" }],
    });
    const pendingWhenShown: StoredWait[][] = [];
    m.onSlots(MCP_ELICITATION_RENDERER, (slot) => {
      void (async () => {
        pendingWhenShown.push(await m.store.getWaits({ status: "pending" }));
        m.dm.resolve(slot.id, { action: "accept", content: { name: "Ada", guests: 2 } });
      })();
    });
    const shown: Array<{ id: string; toolCallId: string | undefined; toolName: string | undefined }> = [];
    m.dm.subscribe((stack) => {
      for (const s of stack)
        if (s.renderer === MCP_ELICITATION_RENDERER)
          shown.push({ id: s.id, toolCallId: s.toolCallId, toolName: s.toolName });
    });

    await m.glove.processRequest("Book a table.");

    const [slot] = shown;
    expect(slot).toEqual({ id: expect.any(String), toolCallId: "b1", toolName: "feat__book_table" });
    expect(pendingWhenShown).toEqual([
      [
        expect.objectContaining({
          id: slot!.id,
          kind: "question",
          renderer: MCP_ELICITATION_RENDERER,
          toolCallId: "b1",
          position: 0,
        }),
      ],
    ]);
    const [stored] = await m.store.getWaits();
    expect(stored).toMatchObject({
      id: slot!.id,
      status: "resolved",
      value: { action: "accept", content: { name: "Ada", guests: 2, vegetarian: false } },
    });
    expect(stored!.input).toMatchObject({ serverId: "feat", message: "Who is the booking for?" });
    const [result] = await m.results();
    expect(result!.result).toMatchObject({ status: "success", data: "booked for Ada, 2 guests, vegetarian=false" });
  });

  it("outlives its Glove: another one lists it, and the answer re-sends the call, which meets it without showing anything", async () => {
    const { first, second, slotId } = await abandonedElicitation([{ text: "Booked for Grace." }]);
    try {
      let shownAgain = 0;
      second.onSlots(MCP_ELICITATION_RENDERER, () => shownAgain++);
      expect(await second.glove.pendingSlots!()).toEqual([
        expect.objectContaining({
          id: slotId,
          renderer: MCP_ELICITATION_RENDERER,
          toolName: "feat__book_table",
          toolCallId: "b1",
          input: expect.objectContaining({ message: "Who is the booking for?" }),
        }),
      ]);

      const resumed = await second.glove.resolveSlot!(slotId, {
        action: "accept",
        content: { name: "Grace", guests: 3 },
      });
      expect(resumed?.text).toBe("Booked for Grace.");
      // The schema's default was applied to the stored answer before the server saw it.
      expect((await second.results()).map((r) => [r.call_id, r.result.data])).toEqual([
        ["b1", "booked for Grace, 3 guests, vegetarian=false"],
      ]);
      expect(shownAgain).toBe(0);
      expect(second.dm.stack).toEqual([]);
      expect(await second.glove.pendingSlots!()).toEqual([]);
    } finally {
      await first.mount.unmount();
    }
  });

  it("a stored answer the form refuses asks again with the issues", async () => {
    const { first, second, slotId } = await abandonedElicitation([{ text: "ok" }]);
    try {
      const asked: unknown[] = [];
      second.onSlots(MCP_ELICITATION_RENDERER, (slot) => {
        asked.push(slot.input);
        second.dm.resolve(slot.id, { action: "decline" });
      });
      // resolveSlot cannot check it (the form's schema is the server's, not the tool's): the call does.
      await second.glove.resolveSlot!(slotId, { action: "accept", content: { guests: 0 } });
      expect(asked).toEqual([
        expect.objectContaining({
          issues: expect.arrayContaining([expect.objectContaining({ path: "content.name" })]),
        }),
      ]);
      expect((await second.results()).map((r) => r.result.data)).toEqual(["no booking: decline"]);
    } finally {
      await first.mount.unmount();
    }
  });
});

describe("which bridged calls are durable", () => {
  it("only those the server says may be repeated: readOnlyHint or idempotentHint", async () => {
    const m = await server.mount({ serverMode: false });
    const connection = m.mount.session.connection("feat")!;
    const tool = (annotations: McpTool["annotations"]): McpTool => ({ ...connection.tools[0]!, annotations });
    expect(bridgeMcpTool(connection, tool({ readOnlyHint: true })).durable).toBeUndefined();
    expect(bridgeMcpTool(connection, tool({ idempotentHint: true })).durable).toBeUndefined();
    expect(bridgeMcpTool(connection, tool({ destructiveHint: false })).durable).toBe(false);
    expect(bridgeMcpTool(connection, tool({ destructiveHint: true, idempotentHint: false })).durable).toBe(false);
    expect(bridgeMcpTool(connection, tool(undefined)).durable).toBe(false);
  });
});
