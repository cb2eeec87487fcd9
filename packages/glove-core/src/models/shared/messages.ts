import * as z from "zod";
import type { ContentPart, Message, Tool, ToolResultData } from "../../types/index.js";

/**
 * What a model sees of a tool result: `status`, `data` and `message` — never
 * `renderData`, `summary` or `generateSummaryArgs` (the PromptMachine has already
 * swapped `data` for the summary where that applies).
 */
export function toolResultPayload(result: ToolResultData): { status: string; data: unknown; message?: string } {
  const payload: { status: string; data: unknown; message?: string } = {
    status: result.status,
    data: result.data === undefined ? null : result.data,
  };
  if (typeof result.message === "string" && result.message) payload.message = result.message;
  return payload;
}

/** The tool result as the string most providers want as its content. */
export function toolResultContent(result: ToolResultData): string {
  return JSON.stringify(toolResultPayload(result));
}

/** Failed and aborted results are flagged as errors to providers that support it. */
export function isErrorResult(result: ToolResultData): boolean {
  return result.status !== "success";
}

const schemaCache = new WeakMap<object, Record<string, unknown>>();
const EMPTY_OBJECT_SCHEMA = { type: "object", properties: {} };

/**
 * What a tool's input schema is defined by: its `jsonSchema`, else its zod schema, else the tool
 * itself. Conversations built from the same definitions share these objects, so work keyed by
 * them is done once per process, not once per conversation.
 */
export function schemaSource(tool: Tool<unknown>): object {
  return tool.jsonSchema ?? tool.input_schema ?? tool;
}

/**
 * A tool's input as JSON Schema: `jsonSchema` verbatim, else the zod schema
 * converted with `z.toJSONSchema` (input side, unrepresentable parts as `{}`),
 * without the `$schema` marker. Cached per schema object (see `schemaSource`).
 */
export function toolJsonSchema(tool: Tool<unknown>): Record<string, unknown> {
  const source = schemaSource(tool);
  const cached = schemaCache.get(source);
  if (cached) return cached;
  let schema: Record<string, unknown>;
  if (tool.jsonSchema) {
    schema = tool.jsonSchema;
  } else if (tool.input_schema) {
    const converted = z.toJSONSchema(tool.input_schema, { io: "input", unrepresentable: "any" }) as Record<
      string,
      unknown
    >;
    const { $schema: _drop, ...rest } = converted;
    void _drop;
    schema = rest;
  } else {
    schema = EMPTY_OBJECT_SCHEMA;
  }
  schemaCache.set(source, schema);
  return schema;
}

/**
 * The ordered parts of a user message: its text (unless `content` carries text
 * parts of its own) followed by every content part. Images, documents and video
 * are kept as they are.
 */
export function userParts(message: Message): ContentPart[] {
  const content = message.content ?? [];
  if (!content.length) return message.text ? [{ type: "text", text: message.text }] : [];
  const hasText = content.some((p) => p.type === "text");
  return hasText || !message.text ? content : [{ type: "text", text: message.text }, ...content];
}

/** A tool call's arguments as an object, for providers that want JSON objects (Anthropic, Bedrock). */
export function argsObject(input: unknown): Record<string, unknown> {
  if (input && typeof input === "object" && !Array.isArray(input)) return input as Record<string, unknown>;
  if (typeof input === "string") {
    try {
      const parsed = JSON.parse(input) as unknown;
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // fall through: keep the raw text so the model sees what it sent
    }
    return { raw_arguments: input };
  }
  return input === undefined || input === null ? {} : { value: input };
}

/** A tool call's arguments as a JSON string (OpenAI wants a string; unparseable raw strings pass through). */
export function argsString(input: unknown): string {
  if (typeof input === "string") return input;
  return JSON.stringify(input ?? {});
}

/** Parses streamed/returned tool arguments; unparseable text is returned raw (decision 0001). */
export function parseArgs(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Merges consecutive items of the same role. `merge` must combine both items'
 * content without dropping any part (images and documents included).
 */
export function mergeConsecutive<T extends { role: string }>(
  items: T[],
  canMerge: (a: T, b: T) => boolean,
  merge: (a: T, b: T) => T,
): T[] {
  const out: T[] = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (last && last.role === item.role && canMerge(last, item)) out[out.length - 1] = merge(last, item);
    else out.push(item);
  }
  return out;
}

/** Rough token estimate (4 characters a token) used only when a provider reports no usage. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** `base64` data or URL of a part as a data: URL / plain URL. */
export function partUrl(part: ContentPart): string | undefined {
  const source = part.source;
  if (!source) return undefined;
  if (source.type === "url" || (!source.data && source.url)) return source.url;
  if (source.data !== undefined) return `data:${source.media_type};base64,${source.data}`;
  return undefined;
}
