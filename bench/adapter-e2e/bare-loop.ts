import { z } from "zod";
import { MODEL } from "./fake-openai.js";
import { LOOKUP_DESCRIPTION, SYSTEM_PROMPT, USER_REQUEST, lookupSchema, runLookup } from "./fixtures.js";
import type { E2ESession } from "./glove-loop.js";

interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

const TOOLS = [
  {
    type: "function",
    function: {
      name: "lookup",
      description: LOOKUP_DESCRIPTION,
      parameters: z.toJSONSchema(lookupSchema, { io: "input" }),
    },
  },
];

/**
 * The bare loop: a chat-completions message array, `fetch`, a minimal SSE
 * parser, tool-call fragments assembled by index, zod validation, one callback
 * per event. What a hand-written agent does, without Glove.
 */
export function createBareSession(baseURL: string, onEvent?: (type: string, data: unknown) => void): E2ESession {
  const url = `${baseURL}/chat/completions`;
  const headers = { "content-type": "application/json", authorization: "Bearer sk-bench" };
  const messages: ChatMessage[] = [{ role: "system", content: SYSTEM_PROMPT }];
  let events = 0;
  const emit = async (type: string, data: unknown) => {
    events++;
    onEvent?.(type, data);
  };

  async function call(): Promise<ChatMessage> {
    const res = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({
        model: MODEL,
        messages,
        tools: TOOLS,
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
    const decoder = new TextDecoder();
    let buffer = "";
    let text = "";
    const calls: Array<{ id: string; name: string; args: string }> = [];
    let done = false;
    for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(bytes, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!event.startsWith("data: ")) continue;
        const data = event.slice(6);
        if (data === "[DONE]") {
          done = true;
          continue;
        }
        const json = JSON.parse(data) as {
          choices: Array<{
            delta: {
              content?: string;
              tool_calls?: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }>;
            };
          }>;
        };
        const delta = json.choices[0]?.delta;
        if (!delta) continue;
        if (delta.content) {
          text += delta.content;
          await emit("text_delta", { text: delta.content });
        }
        for (const d of delta.tool_calls ?? []) {
          const c = (calls[d.index] ??= { id: d.id ?? "", name: "", args: "" });
          if (d.function?.name) c.name += d.function.name;
          if (d.function?.arguments) c.args += d.function.arguments;
        }
      }
    }
    if (!done) throw new Error("stream ended early");
    for (const c of calls) await emit("tool_use", { id: c.id, name: c.name, input: c.args });
    await emit("model_response_complete", { text, tool_calls: calls.length });
    await emit("token_consumption", { tokens_in: 0, tokens_out: 0 });
    const message: ChatMessage = { role: "assistant", content: text || null };
    if (calls.length) {
      message.tool_calls = calls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.args },
      }));
    }
    return message;
  }

  return {
    async request(text = USER_REQUEST) {
      messages.push({ role: "user", content: text });
      for (;;) {
        const reply = await call();
        messages.push(reply);
        if (!reply.tool_calls) return;
        for (const c of reply.tool_calls) {
          const parsed = lookupSchema.safeParse(JSON.parse(c.function.arguments));
          const result = parsed.success
            ? runLookup(parsed.data)
            : { status: "error", data: null, message: parsed.error.message };
          await emit("tool_use_result", { id: c.id, result });
          messages.push({ role: "tool", tool_call_id: c.id, content: JSON.stringify(result) });
        }
      }
    },
    messages: async () => messages.slice(1),
    get events() {
      return events;
    },
  };
}
