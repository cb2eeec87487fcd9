import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { GetPromptResult, Prompt } from "@modelcontextprotocol/sdk/types.js";
import { GloveError, type ContentPart, type DefineSkillArgs } from "glove-core";
import { bridgedToolName } from "../bridge.js";
import { messageOf } from "../errors.js";

/** Thrown by a prompt skill: missing arguments, a disconnected server, or the server refusing. */
export class McpPromptError extends GloveError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { ...options, code: "GLOVE_MCP_PROMPT" });
    this.name = "McpPromptError";
  }

  static override isInstance(error: unknown): error is McpPromptError {
    return GloveError.isInstance(error) && error.code === "GLOVE_MCP_PROMPT";
  }
}

/** The skill name of an MCP prompt: `${id}__${prompt}`, like bridged tools (skills allow [\w-]). */
export function promptSkillName(id: string, prompt: string): string {
  return bridgedToolName(id, prompt);
}

/**
 * Prompt arguments from free text: a JSON object, or `name=value` pairs (values may be quoted),
 * or — for a prompt with exactly one argument — the whole text as that argument.
 */
export function parsePromptArguments(text: string, prompt: Pick<Prompt, "arguments">): Record<string, string> {
  const trimmed = text.trim();
  const declared = prompt.arguments ?? [];
  if (trimmed === "") return {};
  if (trimmed.startsWith("{")) {
    try {
      const parsed = JSON.parse(trimmed) as unknown;
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
        return Object.fromEntries(
          Object.entries(parsed).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
        );
      }
    } catch {
      // not JSON after all: fall through to the other forms
    }
  }
  const pairs = [...trimmed.matchAll(/([A-Za-z_][\w-]*)=(?:"([^"]*)"|'([^']*)'|(\S+))/g)];
  if (pairs.length > 0) return Object.fromEntries(pairs.map((m) => [m[1]!, m[2] ?? m[3] ?? m[4] ?? ""]));
  if (declared.length === 1) return { [declared[0]!.name]: trimmed };
  return {};
}

/** A prompt's messages as skill content: text joined (role-labelled when the assistant speaks), images kept. */
export function promptContent(result: GetPromptResult): string | ContentPart[] {
  const labelled = result.messages.some((m) => m.role === "assistant");
  const texts: string[] = [];
  const images: ContentPart[] = [];
  for (const message of result.messages) {
    const c = message.content;
    let text: string;
    if (c.type === "text") text = c.text;
    else if (c.type === "image") {
      images.push({ type: "image", source: { type: "base64", media_type: c.mimeType, data: c.data } });
      text = `[image ${c.mimeType}]`;
    } else if (c.type === "resource")
      text =
        "text" in c.resource && typeof c.resource.text === "string" ? c.resource.text : `[resource ${c.resource.uri}]`;
    else if (c.type === "resource_link") text = `[resource link ${c.uri}]`;
    else text = `[${c.type}]`;
    texts.push(labelled ? `${message.role}: ${text}` : text);
  }
  const joined = texts.join("\n\n");
  return images.length ? [{ type: "text", text: joined }, ...images] : joined;
}

/**
 * One skill per MCP prompt: `/${id}__${prompt} args…` for the user, and through glove_invoke_skill
 * for the model. `client()` is read at invocation, so a skill outliving its connection (skills
 * cannot be removed from a Glove) fails with a clear McpPromptError instead of a dead client.
 */
export function promptSkill(id: string, prompt: Prompt, client: () => Client | undefined): DefineSkillArgs {
  const args = prompt.arguments ?? [];
  const usage = args.length
    ? ` Arguments: ${args.map((a) => `${a.name}${a.required ? "" : "?"}${a.description ? ` (${a.description})` : ""}`).join(", ")}; pass name=value pairs or JSON.`
    : "";
  return {
    name: promptSkillName(id, prompt.name),
    description: `${prompt.description ?? prompt.title ?? `Prompt "${prompt.name}"`} (MCP server "${id}").${usage}`,
    exposeToAgent: true,
    async handler(ctx) {
      const live = client();
      if (!live)
        throw new McpPromptError(
          `MCP server "${id}" is not connected; activate it again to use /${promptSkillName(id, prompt.name)}.`,
        );
      const values = parsePromptArguments(ctx.source === "agent" ? (ctx.args ?? "") : ctx.parsedText, prompt);
      const missing = args.filter((a) => a.required && values[a.name] === undefined).map((a) => a.name);
      if (missing.length) {
        throw new McpPromptError(
          `Prompt "${prompt.name}" of "${id}" needs ${missing.join(", ")}: pass them as name=value pairs.`,
        );
      }
      try {
        return promptContent(await live.getPrompt({ name: prompt.name, arguments: values }));
      } catch (error) {
        throw new McpPromptError(`MCP server "${id}" could not render prompt "${prompt.name}": ${messageOf(error)}`, {
          cause: error,
        });
      }
    },
  };
}
