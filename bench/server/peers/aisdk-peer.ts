/**
 * The AI SDK as a peer, as its docs build a chat server on node:http: `streamText` on the
 * OpenAI-compatible provider with the `lookup` tool (two steps: the call, then the answer), the
 * history of each conversation in memory, and the UI message stream piped to the response of
 * `POST /conversations/:id/chat` (SSE, one `data:` frame per chunk).
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { stepCountIs, streamText, tool, type ModelMessage } from "ai";
import { MODEL } from "../../adapter-e2e/fake-openai.js";
import { LOOKUP_DESCRIPTION, SYSTEM_PROMPT, lookupSchema, runLookup } from "../../adapter-e2e/fixtures.js";
import { json, readBody } from "../bare-target.js";
import { listenBench } from "../bench-listen.js";
import { bearer } from "../fixtures.js";
import type { PeerOptions } from "./peer-options.js";

export interface RunningAiSdk {
  url: string;
  readonly liveConversations: number;
  close(): Promise<void>;
}

const tools = {
  lookup: tool({
    description: LOOKUP_DESCRIPTION,
    inputSchema: lookupSchema,
    execute: async (input) => runLookup(input),
  }),
};

export async function startAiSdkPeer(options: PeerOptions): Promise<RunningAiSdk> {
  const provider = createOpenAICompatible({
    name: "bench",
    baseURL: options.modelURL,
    apiKey: "sk-bench",
    includeUsage: true,
  });
  const model = provider.chatModel(MODEL);
  const conversations = new Map<string, ModelMessage[]>();

  async function chat(history: ModelMessage[], text: string, res: ServerResponse): Promise<void> {
    history.push({ role: "user", content: text });
    const result = streamText({
      model,
      system: SYSTEM_PROMPT,
      messages: history,
      tools,
      stopWhen: stepCountIs(2),
      maxRetries: 0,
      onFinish: ({ response }) => void history.push(...response.messages),
    });
    result.pipeUIMessageStreamToResponse(res);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!bearer(req.headers.authorization)) return json(res, 401, { error: "unauthenticated" });
    const parts = (req.url ?? "/").split("?")[0]!.split("/").filter(Boolean);
    if (parts[0] !== "conversations") return json(res, 404, { error: "not found" });
    if (parts.length === 1 && req.method === "POST") {
      await readBody(req);
      const id = randomUUID();
      conversations.set(id, []);
      return json(res, 201, { id });
    }
    const history = conversations.get(parts[1] ?? "");
    if (!history) return json(res, 404, { error: "not found" });
    if (parts.length === 2 && req.method === "DELETE") {
      conversations.delete(parts[1]!);
      res.writeHead(204).end();
      return;
    }
    if (parts[2] === "chat" && req.method === "POST") {
      const body = JSON.parse(await readBody(req)) as { text?: unknown };
      if (typeof body.text !== "string") return json(res, 400, { error: "text must be a string" });
      return chat(history, body.text, res);
    }
    return json(res, 405, { error: "method not allowed" });
  }

  const listening = await listenBench(handle);
  return {
    url: listening.url,
    get liveConversations() {
      return conversations.size;
    },
    close: () => listening.close(),
  };
}
