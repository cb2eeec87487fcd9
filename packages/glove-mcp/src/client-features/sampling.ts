import {
  McpError,
  type CreateMessageRequest,
  type CreateMessageResult,
  type SamplingMessageContentBlock,
} from "@modelcontextprotocol/sdk/types.js";
import {
  PERMISSION_REQUEST_RENDERER,
  type ContentPart,
  type Message,
  type PermissionAnswer,
  type PermissionRequestInput,
  type PermissionStatus,
} from "glove-core";
import type { McpFeatureHost, McpSamplingOptions } from "./types.js";

/** MCP's error code for "the user rejected the sampling request". */
export const SAMPLING_REJECTED_CODE = -1;

/** The permission name sampling requests of a server are checked under. */
export function samplingPermissionName(serverId: string): string {
  return `${serverId}__sampling`;
}

type Params = CreateMessageRequest["params"];

/**
 * Answers one `sampling/createMessage` with the Glove's model, after the permission check.
 * Denied (or no way to ask, as in serverMode without a policy) → an MCP error with code -1,
 * which the server sees as a rejected request; the conversation is never touched.
 */
export async function answerSampling(
  host: McpFeatureHost,
  serverId: string,
  params: Params,
  options: McpSamplingOptions,
  signal: AbortSignal,
): Promise<CreateMessageResult> {
  const allowed = await decide(host, serverId, params, options, signal);
  if (!allowed) {
    throw new McpError(SAMPLING_REJECTED_CODE, `The client declined the sampling request of "${serverId}".`);
  }
  if (params.tools?.length) {
    throw new McpError(
      -32602,
      "This client does not offer tools in sampling requests (sampling.tools is not declared).",
    );
  }
  const model = options.model ?? host.model;
  const messages: Message[] = params.messages.map(toGloveMessage);
  const result = await model.prompt(
    { messages, ...(params.systemPrompt ? { systemPrompt: params.systemPrompt } : {}) },
    async () => undefined,
    signal,
  );
  const reply = [...result.messages].reverse().find((m) => m.sender === "agent");
  return {
    role: "assistant",
    content: { type: "text", text: reply?.text ?? "" },
    model: model.name,
    stopReason: "endTurn",
  };
}

async function decide(
  host: McpFeatureHost,
  serverId: string,
  params: Params,
  options: McpSamplingOptions,
  signal: AbortSignal,
): Promise<boolean> {
  if (options.permission) {
    const answer = await options.permission({ serverId, params });
    return answer === true || answer === "granted";
  }
  const name = samplingPermissionName(serverId);
  const stored: PermissionStatus = (await host.store?.getPermission?.(name)) ?? "unset";
  if (stored !== "unset") return stored === "granted";
  if (host.serverMode) return false; // nobody to ask, fail closed
  const input: PermissionRequestInput = {
    tool_name: name,
    input: { serverId, messages: params.messages, systemPrompt: params.systemPrompt, maxTokens: params.maxTokens },
  };
  const dm = host.displayManager;
  const before = new Set(dm.stack.map((s) => s.id));
  const wait = dm.pushAndWait<PermissionRequestInput, PermissionAnswer>({
    renderer: PERMISSION_REQUEST_RENDERER,
    input,
    toolName: name,
  });
  const slotId = dm.stack.find((s) => !before.has(s.id))?.id;
  const onAbort = () => slotId && dm.removeSlot(slotId);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const answer = await wait;
    const granted = typeof answer === "boolean" ? answer : Boolean(answer?.granted);
    if (typeof answer === "object" && answer?.remember)
      await host.store?.setPermission?.(name, granted ? "granted" : "denied");
    return granted;
  } catch {
    return false; // dismissed or closed: not a grant
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

function toGloveMessage(message: Params["messages"][number]): Message {
  const blocks = (
    Array.isArray(message.content) ? message.content : [message.content]
  ) as SamplingMessageContentBlock[];
  const text: string[] = [];
  const content: ContentPart[] = [];
  for (const block of blocks) {
    if (block.type === "text") text.push(block.text);
    else if (block.type === "image")
      content.push({ type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } });
    else if (block.type === "audio") text.push(`[audio ${block.mimeType}]`);
    else text.push(`[${block.type}]`);
  }
  return {
    sender: message.role === "assistant" ? "agent" : "user",
    text: text.join("\n"),
    ...(content.length ? { content: [{ type: "text", text: text.join("\n") }, ...content] } : {}),
  };
}
