import type { Message, ModelPromptResult } from "../types/index.js";
import { throwIfAborted } from "../errors.js";
import { interruptedResult, needsTurnWindow, unansweredToolCalls } from "../stores/message-integrity.js";
import type { Agent, AskOptions } from "./agent.js";

/**
 * Continues the stored conversation's current turn after the process running it died (glove-server
 * takes turns over this way). Nothing is re-sent by the user:
 * - a stored text answer ends the turn as it is (the model is not asked twice);
 * - calls without a result are re-run when their tool says `rerunOnRecovery`, else answered
 *   `aborted` with the interrupted message (their effects are unknown), in one results message;
 * - then the loop continues: the model sees the results (or the user message) and goes on.
 */
export async function resumeTurn(
  agent: Agent,
  signal?: AbortSignal,
  options?: AskOptions,
  /** Calls to run again whatever their tool says: those with stored questions (durable human-in-the-loop). */
  rerunCalls?: ReadonlySet<string>,
): Promise<ModelPromptResult> {
  throwIfAborted(signal);
  const view = await agent.context.modelView();
  const last = view.at(-1);
  if (last?.sender === "agent" && !(Array.isArray(last.tool_calls) && last.tool_calls.length > 0)) {
    return { messages: [last], tokens_in: 0, tokens_out: 0 };
  }
  const pending = needsTurnWindow(last) ? unansweredToolCalls(view) : [];
  if (pending.length > 0) {
    const rerun = pending.filter(
      (call) =>
        (call.id !== undefined && rerunCalls?.has(call.id) === true) ||
        agent.executor.tools.find((tool) => tool.name === call.tool_name)?.rerunOnRecovery === true,
    );
    for (const call of rerun) agent.executor.addToolCallToStack(call);
    const rerunResults = rerun.length > 0 ? await agent.executor.executeToolStack(undefined, signal) : [];
    const results = pending.map(
      (call) => rerunResults.find((r) => r.call_id !== undefined && r.call_id === call.id) ?? interruptedResult(call),
    );
    const message: Message = { sender: "user", text: "", tool_results: results };
    // Persisted before any abort surfaces, as in the loop: no call stays without a result.
    await agent.context.appendMessages([message]);
    throwIfAborted(signal);
  }
  return agent.loop(undefined, signal, options);
}
