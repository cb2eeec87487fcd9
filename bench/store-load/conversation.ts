import { Displaymanager, Glove, type IGloveRunnable, type PromptRequest, type StoreAdapter } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";

/** Model turns between compactions: one every 20 requests (≈ 80 messages + the summary pair). */
export const COMPACT_EVERY_TURNS = 40;

/**
 * A scripted model for an endless realistic conversation: each user question gets a `lookup`
 * tool call, then an answer built from the result; compaction requests get a short summary.
 */
export function conversationModel(): ScriptedModel {
  const step = (request: PromptRequest): ScriptedTurn => {
    const last = request.messages.at(-1);
    if (last?.is_compaction_request)
      return { text: "Summary: the user asked many lookup questions; all were answered." };
    if (last?.tool_results?.length)
      return { text: `The answer is ${JSON.stringify(last.tool_results[0]!.result.data)}.` };
    return { text: "Let me look that up.", toolCalls: [{ name: "lookup", input: { query: last?.text ?? "" } }] };
  };
  return new ScriptedModel([], { name: "store-load", fallback: step });
}

/** A Glove on `store` with the `lookup` tool; a new one has a cold Context (as a new process would). */
export function conversationAgent(
  store: StoreAdapter,
  model: ScriptedModel = conversationModel(),
): { agent: IGloveRunnable; model: ScriptedModel } {
  const agent = new Glove({
    store,
    model,
    displayManager: new Displaymanager(),
    systemPrompt: "You answer questions with the lookup tool.",
    compaction_config: { compaction_instructions: "Summarize.", max_turns: COMPACT_EVERY_TURNS },
  })
    .fold({
      name: "lookup",
      description: "Looks something up.",
      async do(input) {
        return { status: "success", data: { query: (input as { query: string }).query, hits: 3 } };
      },
    })
    .build();
  return { agent, model };
}

/** One user request (4 messages: question, tool call, result, answer), dropping the model's request log. */
export async function ask(agent: IGloveRunnable, model: ScriptedModel, n: number): Promise<void> {
  await agent.processRequest(`Question ${n}: what is item ${n % 97}?`);
  model.requests.length = 0;
}
