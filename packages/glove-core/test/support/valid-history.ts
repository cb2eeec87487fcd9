import { expect } from "vitest";
import { decodeMessage, unansweredToolCalls, type StoreAdapter } from "glove-core";
import { expectValidHistory } from "./make-glove.js";

/**
 * The stored conversation is one a provider accepts: every message decodes as a stored message
 * would, every tool call is an object with a name and an id, and every call has exactly one
 * result (none left dangling at the end of the turn).
 */
export async function expectStoreHistoryValid(store: StoreAdapter): Promise<void> {
  const messages = await store.getMessages();
  for (const m of messages) {
    const decoded = decodeMessage(JSON.stringify(m));
    expect("problem" in decoded ? decoded.problem : "ok").toBe("ok");
    for (const call of m.tool_calls ?? []) {
      expect(typeof call.tool_name === "string" && call.tool_name !== "", JSON.stringify(call)).toBe(true);
      expect(typeof call.id === "string" && call.id !== "", JSON.stringify(call)).toBe(true);
    }
    if (m.tool_calls) expect(m.tool_calls.length).toBeGreaterThan(0);
  }
  expect(unansweredToolCalls(messages)).toEqual([]);
  await expectValidHistory(store);
}
