/**
 * The agent of the MCP Apps demo: the apps' tools, bridged by glove-mcp, on a Glove per
 * conversation. Without an API key an offline script plays the model: it calls the app of the
 * server the user names, then says so.
 */
import { Glove, type Message, type ModelAdapter, type PromptRequest, type StoreAdapter } from "glove-core";
import { ScriptedModel, type ScriptedTurn } from "glove-core/testing";
import { bridgeMcpTools, type McpConnection } from "glove-mcp";
import type { AgentContext } from "glove-server";

export const SYSTEM_PROMPT =
  "You show the user MCP Apps: call basic__get-time for the time, budget__get-budget-data for the budget allocator. Answer in one short sentence.";

/** The words that pick an app in the offline script, and the bridged tool each one calls. */
export const OFFLINE_APPS: ReadonlyArray<{ word: RegExp; tool: string }> = [
  { word: /\btime\b/i, tool: "basic__get-time" },
  { word: /\bbudget\b/i, tool: "budget__get-budget-data" },
];

function lastUserText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.sender === "user" && !message.tool_results?.length) return message.text ?? "";
  }
  return "";
}

/** Stateless: the user's last words pick the app, a tool result in the last message ends the turn. */
export function offlineTurn(request: PromptRequest): ScriptedTurn {
  const last = request.messages.at(-1);
  if (last?.tool_results?.length) return { text: `Here is ${last.tool_results[0]!.tool_name}'s app.` };
  const text = lastUserText(request.messages);
  const app = OFFLINE_APPS.find((candidate) => candidate.word.test(text));
  if (!app) return { text: 'Ask for "the time" or "the budget" to see an MCP App.' };
  return { toolCalls: [{ name: app.tool, input: {}, id: `call_${request.messages.length}` }] };
}

/** One Glove per conversation, with every connected server's tools; the page answers its prompts. */
export function appsAgent(
  connections: readonly McpConnection[],
  onOpen: (context: AgentContext, glove: Glove) => void,
  model?: () => ModelAdapter,
) {
  return (context: AgentContext) => {
    const glove = new Glove({
      store: context.store as StoreAdapter,
      model: model?.() ?? new ScriptedModel([], { name: "offline-apps", record: false, fallback: offlineTurn }),
      systemPrompt: SYSTEM_PROMPT,
      compaction_config: { compaction_instructions: "Summarise which apps the user opened and what they did in them." },
    });
    for (const connection of connections) for (const fold of bridgeMcpTools(connection)) glove.fold(fold);
    onOpen(context, glove);
    return glove;
  };
}
