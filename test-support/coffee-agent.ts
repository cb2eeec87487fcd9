import { expect } from "vitest";
import { Displaymanager, Glove, type Message, type StoreAdapter } from "glove-core";
import { ScriptedModel } from "glove-core/testing";

/** The agent the cross-process tests drive: a coffee shop on `store`, answering with `model`. */
export function makeCoffeeAgent(store: StoreAdapter, model: ScriptedModel) {
  return new Glove({
    store,
    model,
    displayManager: new Displaymanager(),
    systemPrompt: "You run a coffee shop.",
    compaction_config: { compaction_instructions: "Summarize." },
  }).build();
}

/** Every tool call is answered, for every call id, by the message right after it. */
export function expectNoOrphanedToolCalls(messages: readonly Message[]): void {
  messages.forEach((m, i) => {
    if (!m.tool_calls?.length) return;
    const answered = new Set(messages[i + 1]?.tool_results?.map((r) => r.call_id));
    for (const call of m.tool_calls)
      expect(answered.has(call.id), `tool call ${call.id} of message ${i} has no result`).toBe(true);
  });
}

/**
 * The agent on `store` posts an inbox item; `resolveElsewhere` answers it (from another process);
 * the next request must carry the answer, and the item ends consumed.
 */
export async function expectInboxAnswerReachesNextRequest(
  store: StoreAdapter,
  resolveElsewhere: (itemId: string) => void | Promise<void>,
): Promise<void> {
  const model = new ScriptedModel([
    {
      toolCalls: [
        { name: "glove_post_to_inbox", input: { tag: "oat_milk", request: "When is oat milk back?", blocking: false } },
      ],
    },
    { text: "I've asked; I'll let you know." },
    { text: "Good news: oat milk is back." },
  ]);
  const agent = makeCoffeeAgent(store, model);
  await agent.processRequest("Do you have oat milk?");
  const [item] = (await store.getInboxItems?.()) ?? [];
  expect(item?.status).toBe("pending");

  await resolveElsewhere(item!.id);

  await agent.processRequest("Any news?");
  const request = model.requests[2]!.messages;
  expect(request.some((m) => m.text.includes("Back in stock Tuesday."))).toBe(true);
  expect(request.at(-1)?.text).toBe("Any news?");
  expect((await store.getInboxItems?.())?.[0]?.status).toBe("consumed");
}
