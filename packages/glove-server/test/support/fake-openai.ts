import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted answer: text, or a tool call, or an error status. */
export type FakeAnswer =
  | { text: string }
  | { tool: string; args: Record<string, unknown>; id: string }
  | { status: number; message: string; retryAfterMs?: number };

export interface FakeOpenAI {
  url: string;
  /** Every request: its headers and raw body. */
  received: Array<{ headers: IncomingMessage["headers"]; raw: string }>;
  /** Answers played in order; past the end, `fallback` answers. */
  answers: FakeAnswer[];
  close(): Promise<void>;
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

function answer(res: ServerResponse, a: FakeAnswer): void {
  if ("status" in a) {
    res.writeHead(a.status, {
      "content-type": "application/json",
      ...(a.retryAfterMs !== undefined ? { "retry-after-ms": String(a.retryAfterMs) } : {}),
    });
    res.end(JSON.stringify({ error: { message: a.message, type: "fake_error" } }));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  if ("text" in a) {
    res.write(chunk({ content: a.text }));
    res.write(chunk({}, "stop"));
  } else {
    const call = {
      index: 0,
      id: a.id,
      type: "function",
      function: { name: a.tool, arguments: JSON.stringify(a.args) },
    };
    res.write(chunk({ tool_calls: [call] }));
    res.write(chunk({}, "tool_calls"));
  }
  res.write(`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 2 } })}\n\n`);
  res.end("data: [DONE]\n\n");
}

/** An OpenAI-compatible provider on 127.0.0.1 speaking the streamed chat completions wire format. */
export async function startFakeOpenAI(fallback: FakeAnswer = { text: "ok" }): Promise<FakeOpenAI> {
  const state: FakeOpenAI = { url: "", received: [], answers: [], close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      state.received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
      answer(res, state.answers.shift() ?? fallback);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
