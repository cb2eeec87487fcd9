import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Tool turns the fake model plays per user request before it answers with text. */
export const TOOL_TURNS = 3;
export const MODEL = "bench-model";

interface ChatMessage {
  role: string;
  content?: unknown;
}

function frame(obj: unknown): string {
  return `data: ${JSON.stringify(obj)}\n\n`;
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: "chatcmpl-bench",
  object: "chat.completion.chunk",
  created: 1_700_000_000,
  model: MODEL,
  choices: [{ index: 0, delta, finish_reason: finish }],
});

/** What the fake model plays per user request. */
export interface AnswerPlan {
  /** Tool turns before the text answer (default TOOL_TURNS). */
  toolTurns?: number;
  /** The text answer, one chunk per word (default a 15-word sentence). */
  text?: string;
  /** Whether a tool turn says "Let me look that up." before its call (default true). */
  preamble?: boolean;
}

const DEFAULT_TEXT = "All three items are in stock and ship within two days from the main warehouse.";

/**
 * The SSE body the fake model answers with. Counts the `tool` messages after the
 * last `user` message: fewer than `toolTurns` → another `lookup` tool call
 * (arguments in two fragments), else the final text. Realistic chunking: one
 * chunk per word, a usage chunk, `[DONE]`.
 */
export function answer(messages: ChatMessage[], plan: AnswerPlan = {}): string {
  let lastUser = messages.length - 1;
  while (lastUser >= 0 && messages[lastUser]!.role !== "user") lastUser--;
  let toolTurns = 0;
  for (let i = lastUser + 1; i < messages.length; i++) if (messages[i]!.role === "tool") toolTurns++;
  const promptTokens = Math.ceil(JSON.stringify(messages).length / 4);
  let out = frame(chunk({ role: "assistant", content: "" }));
  if (toolTurns < (plan.toolTurns ?? TOOL_TURNS)) {
    if (plan.preamble !== false)
      for (const w of ["Let ", "me ", "look ", "that ", "up."]) out += frame(chunk({ content: w }));
    const id = `call_${lastUser}_${toolTurns}`;
    out += frame(
      chunk({ tool_calls: [{ index: 0, id, type: "function", function: { name: "lookup", arguments: "" } }] }),
    );
    out += frame(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"query":"item ' } }] }));
    out += frame(chunk({ tool_calls: [{ index: 0, function: { arguments: `${toolTurns + 1}"}` } }] }));
    out += frame(chunk({}, "tool_calls"));
    out += frame({
      ...chunk({}),
      choices: [],
      usage: { prompt_tokens: promptTokens, completion_tokens: 20, total_tokens: promptTokens + 20 },
    });
  } else {
    const words = (plan.text ?? DEFAULT_TEXT).split(" ");
    for (const w of words) out += frame(chunk({ content: `${w} ` }));
    out += frame(chunk({}, "stop"));
    out += frame({
      ...chunk({}),
      choices: [],
      usage: { prompt_tokens: promptTokens, completion_tokens: 16, total_tokens: promptTokens + 16 },
    });
  }
  return out + "data: [DONE]\n\n";
}

/** An OpenAI chat-completions server on 127.0.0.1 playing `answer`. */
export async function startFakeOpenAI(
  port = 0,
  plan: AnswerPlan = {},
): Promise<{ server: Server; url: string; requests: () => number }> {
  let requests = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests++;
      let body: { messages?: ChatMessage[] };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { messages?: ChatMessage[] };
      } catch {
        res.writeHead(400, { "content-type": "application/json" }).end('{"error":{"message":"bad json"}}');
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(answer(body.messages ?? [], plan));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: actual } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${actual}/v1`, requests: () => requests };
}
