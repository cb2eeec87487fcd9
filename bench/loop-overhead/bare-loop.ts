import type { Message, ToolCall, ToolResult, ToolResultData } from "glove-core";
import type { LoopSession } from "./glove-loop.js";
import {
  SEARCH_INPUT,
  TEXT_TURN_TEXT,
  TOKENS_IN,
  TOKENS_OUT,
  TOOL_TURN_TEXT,
  USER_REQUEST,
  priceSchema,
  runPrice,
  runSearch,
  searchSchema,
} from "./fixtures.js";

type Emit = (type: string, data: unknown) => Promise<void>;
type BareTool = (raw: unknown) => Promise<ToolResultData>;

/** zod-validate, then run: the minimum a tool call needs. */
const TOOLS = new Map<string, BareTool>([
  [
    "search",
    async (raw) => {
      const parsed = searchSchema.safeParse(raw);
      return parsed.success
        ? { status: "success", data: runSearch(parsed.data) }
        : { status: "error", data: null, message: parsed.error.message };
    },
  ],
  [
    "price",
    async (raw) => {
      const parsed = priceSchema.safeParse(raw);
      return parsed.success
        ? { status: "success", data: runPrice(parsed.data) }
        : { status: "error", data: null, message: parsed.error.message };
    },
  ],
]);

let callSeq = 0;

/** Same behaviour and events as the ScriptedModel in streaming mode: deltas per word, tool_use, complete. */
async function fakeModel(messages: readonly Message[], emit: Emit): Promise<Message> {
  const last = messages[messages.length - 1];
  const toolTurn = !last?.tool_results?.length;
  const text = toolTurn ? TOOL_TURN_TEXT : TEXT_TURN_TEXT;
  const calls: ToolCall[] = toolTurn
    ? [{ tool_name: "search", input_args: SEARCH_INPUT, id: `bare_${callSeq++}` }]
    : [];
  for (const chunk of text.match(/\S+\s*|\s+/g) ?? [text]) await emit("text_delta", { text: chunk });
  for (const c of calls) await emit("tool_use", { id: c.id, name: c.tool_name, input: c.input_args });
  await emit("model_response_complete", {
    text,
    tool_calls: calls.length ? calls : undefined,
    stop_reason: calls.length ? "tool_use" : "end_turn",
    tokens_in: TOKENS_IN,
    tokens_out: TOKENS_OUT,
  });
  const message: Message = { sender: "agent", text };
  if (calls.length) message.tool_calls = calls;
  return message;
}

/** A hand-written loop over a plain array: the floor the Glove loop is compared with. */
export function createBareSession(history: Message[]): LoopSession {
  const messages = history.slice();
  let events = 0;
  const emit: Emit = async () => {
    events++;
  };
  return {
    async request() {
      messages.push({ sender: "user", text: USER_REQUEST });
      for (;;) {
        const reply = await fakeModel(messages, emit);
        await emit("token_consumption", { consumption: { tokens_in: TOKENS_IN, tokens_out: TOKENS_OUT } });
        messages.push(reply);
        if (!reply.tool_calls) return;
        const results: ToolResult[] = [];
        for (const call of reply.tool_calls) {
          const tool = TOOLS.get(call.tool_name);
          const result: ToolResultData = tool
            ? await tool(call.input_args)
            : { status: "error", data: null, message: "unknown tool" };
          await emit("tool_use_result", { tool_name: call.tool_name, call_id: call.id, result });
          results.push({ tool_name: call.tool_name, call_id: call.id, result });
        }
        messages.push({ sender: "user", text: "", tool_results: results });
      }
    },
    messages: async () => messages.slice(),
    get events() {
      return events;
    },
  };
}
