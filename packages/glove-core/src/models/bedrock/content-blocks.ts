import type { ContentPart } from "../../types/index.js";
import { argsObject, isErrorResult, toolResultPayload } from "../shared/messages.js";
import type { TurnBlocks } from "../shared/turns.js";
import { converseReasoning } from "./reasoning.js";
import type { Block, ConverseMessage } from "./wire-types.js";

const IMAGE_FORMATS = new Set(["png", "jpeg", "gif", "webp"]);
const DOC_FORMATS: Record<string, string> = {
  "application/pdf": "pdf",
  "text/csv": "csv",
  "application/msword": "doc",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.ms-excel": "xls",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "text/html": "html",
  "text/plain": "txt",
  "text/markdown": "md",
};

/** A user content part as a Converse content block. Converse takes bytes only (no URLs). */
export function toConverseBlock(part: ContentPart, index: number): Block {
  if (part.type === "text") return { text: part.text ?? "" };
  const source = part.source;
  if (source?.data !== undefined) {
    if (part.type === "image") {
      const format = source.media_type.split("/")[1]?.replace("jpg", "jpeg") ?? "";
      if (IMAGE_FORMATS.has(format)) return { image: { format, source: { bytes: source.data } } };
    }
    if (part.type === "document") {
      const format = DOC_FORMATS[source.media_type];
      if (format) return { document: { format, name: `document ${index + 1}`, source: { bytes: source.data } } };
    }
  }
  const where = source?.url ? `: ${source.url}` : "";
  return {
    text: `[${part.type} (${source?.media_type ?? "unknown type"}) omitted: not supported by Bedrock Converse${where}]`,
  };
}

/** How Converse writes each kind of block. */
export const CONVERSE_BLOCKS: TurnBlocks<Block> = {
  text: (text) => ({ text }),
  toolUse: (call, i) => ({
    toolUse: { toolUseId: call.id ?? `tooluse_${i}`, name: call.tool_name, input: argsObject(call.input_args) },
  }),
  toolResult: (r) => ({
    toolResult: {
      toolUseId: r.call_id ?? r.tool_name,
      content: [{ json: toolResultPayload(r.result) }],
      status: isErrorResult(r.result) ? "error" : "success",
    },
  }),
  userPart: toConverseBlock,
  isToolResult: (block) => "toolResult" in block,
  reasoning: converseReasoning,
};

/** Renumbers documents across the request: Converse wants document names unique within a request. */
export function numberDocuments(messages: ConverseMessage[]): ConverseMessage[] {
  let docCount = 0;
  for (const m of messages) {
    for (let i = 0; i < m.content.length; i++) {
      const doc = m.content[i]!["document"] as Block | undefined;
      if (doc) m.content[i] = { document: { ...doc, name: `document ${++docCount}` } };
    }
  }
  return messages;
}
