import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { GloveError, type DisplayManagerAdapter } from "glove-core";
import { describeIssues, elicitationAnswerSchema } from "./elicitation-schema.js";
import { askOnce } from "./ask-slot.js";
import { answerUrlElicitation } from "./url-elicitation.js";
import type { McpElicitationInput, McpElicitationOptions, McpFeatureHost } from "./types.js";

/** Display-stack renderer key of the slot an MCP server's elicitation request becomes. */
export const MCP_ELICITATION_RENDERER = "mcp_elicitation";

const DECLINE: ElicitResult = { action: "decline" };

/**
 * Answers one `elicitation/create` (form mode). With a human (not serverMode, a display manager
 * present) it pushes an `mcp_elicitation` slot and waits; otherwise the policy decides (default
 * decline). Every answer is checked against the requested schema: a UI can call
 * `displayManager.checkAnswer(slotId, answer)` first and keep the slot open; an invalid answer
 * resolved anyway settles that slot and the request is asked again with the issues, up to
 * `maxInvalidAnswers` times, then declined. A dismissed slot (reject / removeSlot) is `cancel`.
 * `callDisplay` is the display of the bridged tool call the request came during: the slot is then
 * tagged with that call and, when the call is durable, stored before it is shown (a replay of the
 * call meets the recorded answer and shows nothing).
 */
export async function answerElicitation(
  host: McpFeatureHost,
  serverId: string,
  params: ElicitRequest["params"],
  options: McpElicitationOptions,
  signal: AbortSignal,
  callDisplay?: DisplayManagerAdapter,
): Promise<ElicitResult> {
  if (params.mode === "url") {
    // Declared only with `url: true`; a server asking anyway is declined.
    return options.url ? answerUrlElicitation(host, serverId, params, signal, callDisplay) : DECLINE;
  }
  if (!("requestedSchema" in params)) return DECLINE;
  const input: McpElicitationInput = { serverId, message: params.message, requestedSchema: params.requestedSchema };
  const schema = elicitationAnswerSchema(params.requestedSchema);
  const dm = callDisplay ?? (host.displayManager as DisplayManagerAdapter | undefined);

  if (host.serverMode || !dm) {
    if (!options.policy) return DECLINE;
    const parsed = schema.safeParse(await options.policy(input));
    return parsed.success ? (parsed.data as ElicitResult) : DECLINE;
  }

  const attempts = Math.max(1, (options.maxInvalidAnswers ?? 3) + 1);
  let issues: McpElicitationInput["issues"];
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      // Checked again: a stored answer (given through resolveSlot, or recorded before a replay) never met the slot's schema.
      const answer = schema.safeParse(
        await askOnce(dm, MCP_ELICITATION_RENDERER, issues ? { ...input, issues } : input, schema, signal),
      );
      if (answer.success) return answer.data as ElicitResult;
      issues = describeIssues(answer.error);
    } catch (error) {
      if (GloveError.isInstance(error) && error.code === "GLOVE_DISPLAY_INVALID_OUTPUT") {
        const cause = (error as { cause?: unknown }).cause;
        issues = isZodError(cause) ? describeIssues(cause) : [{ path: "(root)", message: error.message }];
        continue;
      }
      if (
        GloveError.isInstance(error) &&
        (error.code === "GLOVE_DISPLAY_SLOT_REJECTED" || error.code === "GLOVE_DISPLAY_SLOT_CLOSED")
      ) {
        return { action: "cancel" };
      }
      throw error;
    }
  }
  return DECLINE;
}

function isZodError(value: unknown): value is Parameters<typeof describeIssues>[0] {
  return typeof value === "object" && value !== null && Array.isArray((value as { issues?: unknown }).issues);
}
