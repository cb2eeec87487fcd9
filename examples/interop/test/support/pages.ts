/** The three pages, built into `outDir/<mount>` with each example's own Vite config and a `base` of its mount. */
import { join } from "node:path";
import { buildUi } from "../../../web-chat/test/support/browser.js";
import { PAGES, pageBase } from "../../src/app.js";

export async function buildPages(outDir: string): Promise<void> {
  // One after another: three Vite builds at once only fight over the machine's cores.
  for (const page of PAGES) await buildUi(join(outDir, page.mount), { root: page.uiRoot, base: pageBase(page) });
}

/** A conversation as `GET /api/conversations/:id` and `/branches` give it. */
export interface StoredMessage {
  id?: string;
  sender: "user" | "agent";
  text: string;
  tool_calls?: Array<{ id?: string; tool_name: string }>;
  tool_results?: Array<{ call_id?: string; tool_name: string; result: { status: string } }>;
}

/**
 * Whether the history is one a model can be given: it starts with the user, and every tool call
 * is answered by the next message's results, one result per call.
 */
export function problemsIn(messages: readonly StoredMessage[]): string[] {
  const problems: string[] = [];
  if (messages[0]?.sender !== "user") problems.push("does not start with the user");
  messages.forEach((message, index) => {
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) return;
    const results = messages[index + 1]?.tool_results ?? [];
    const answered = calls.filter((call) => results.filter((result) => result.call_id === call.id).length === 1);
    if (answered.length !== calls.length || results.length !== calls.length)
      problems.push(`message ${index}: ${calls.length} calls, ${results.length} results`);
  });
  return problems;
}
