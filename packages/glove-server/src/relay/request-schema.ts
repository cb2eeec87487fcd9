/**
 * The relay's request body, checked with zod. Unknown fields are dropped
 * (clients may send more than a model needs); limits that are about size
 * answer 413, shape problems 400 with one issue per bad field. Provider extras
 * and output schemas are kept as sent (plain JSON objects, within the body's
 * byte and depth limits): the upstream adapter reads them, zod does not.
 */
import type { Message, StructuredOutputRequest } from "glove-core";
import type { RelayRequestBody, RelayToolSpec } from "glove-core/models/relay";
import { z } from "zod";
import { badRequest, tooLarge, zodIssues } from "../errors.js";

const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const contentPart = z.object({
  type: z.enum(["text", "image", "video", "document"]),
  text: z.string().optional(),
  source: z
    .object({ type: z.string(), media_type: z.string(), data: z.string().optional(), url: z.string().optional() })
    .optional(),
});

/** A JSON object kept as sent (not rebuilt by zod): it goes upstream verbatim. */
const jsonObject = (message: string) => z.custom<Record<string, unknown>>(isJsonObject, { message });
const extras = jsonObject("Expected provider_extras to be a JSON object");

const toolCall = z.object({
  tool_name: z.string().min(1),
  input_args: z.unknown().optional(),
  id: z.string().optional(),
  provider_extras: extras.optional(),
});

const reasoningBlock = z.object({
  type: z.enum(["thinking", "redacted_thinking"]),
  text: z.string().optional(),
  signature: z.string().optional(),
  data: z.string().optional(),
  provider: z.string().max(128).optional(),
});

const toolResult = z.object({
  tool_name: z.string(),
  call_id: z.string().optional(),
  result: z.object({
    status: z.enum(["success", "error", "aborted"]),
    data: z.unknown().optional(),
    message: z.string().optional(),
  }),
});

const message = z.object({
  sender: z.enum(["user", "agent"]),
  id: z.string().optional(),
  text: z.string(),
  content: z.array(contentPart).optional(),
  tool_results: z.array(toolResult).optional(),
  tool_calls: z.array(toolCall).optional(),
  is_compaction: z.boolean().optional(),
  is_compaction_request: z.boolean().optional(),
  is_skill_injection: z.boolean().optional(),
  reasoning_content: z.string().optional(),
  reasoning_blocks: z.array(reasoningBlock).optional(),
  is_refusal: z.boolean().optional(),
  provider: z.string().max(128).optional(),
  provider_extras: extras.optional(),
});

const toolSpec = z.object({
  name: z.string().min(1).max(128),
  description: z.string(),
  parameters: jsonObject("Expected a JSON Schema object"),
});

/** The name rule Glove's processRequest applies (providers require it). */
const output = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Expected 1–64 letters, digits, _ or -"),
  schema: jsonObject("Expected a JSON Schema object"),
  description: z.string().optional(),
});

const relayBody = z.object({
  model: z.string().min(1).max(256).optional(),
  systemPrompt: z.string().optional(),
  messages: z.array(message).min(1),
  tools: z.array(toolSpec).optional(),
  maxTokens: z.number().int().positive().optional(),
  output: output.optional(),
});

/** Size limits checked before the shape. */
export interface BodyLimits {
  maxMessages: number;
  maxTools: number;
}

/** The checked body: throws a 413 HttpError for too many messages or tools, a 400 with issues otherwise. */
export function parseRelayBody(raw: Record<string, unknown>, limits: BodyLimits): RelayRequestBody {
  // Counted first, so an oversized list is refused before every item is checked.
  const messages = raw["messages"];
  if (Array.isArray(messages) && messages.length > limits.maxMessages) {
    throw tooLarge(
      `The request has ${messages.length} messages; this relay accepts at most ${limits.maxMessages} (limits.maxMessages). Compact the conversation.`,
    );
  }
  const tools = raw["tools"];
  if (Array.isArray(tools) && tools.length > limits.maxTools) {
    throw tooLarge(
      `The request has ${tools.length} tools; this relay accepts at most ${limits.maxTools} (limits.maxTools).`,
    );
  }
  // The depth was checked when the body was read (readJsonObject).
  const parsed = relayBody.safeParse(raw);
  if (!parsed.success) {
    throw badRequest("The body is not a valid model relay request; see issues.", zodIssues(parsed.error.issues));
  }
  const body = parsed.data;
  const out: RelayRequestBody = { messages: body.messages as Message[] };
  if (body.model !== undefined) out.model = body.model;
  if (body.systemPrompt !== undefined) out.systemPrompt = body.systemPrompt;
  if (body.tools !== undefined) out.tools = body.tools as RelayToolSpec[];
  if (body.maxTokens !== undefined) out.maxTokens = body.maxTokens;
  if (body.output !== undefined) out.output = body.output as StructuredOutputRequest;
  return out;
}
