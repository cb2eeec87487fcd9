import type { ElicitRequestURLParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { GloveError, type DisplayManagerAdapter } from "glove-core";
import { z } from "zod";
import { askOnce } from "./ask-slot.js";
import type { McpFeatureHost, McpUrlElicitationAnswer, McpUrlElicitationInput } from "./types.js";

/** Display-stack renderer key of the slot a server's URL-mode elicitation becomes. */
export const MCP_URL_ELICITATION_RENDERER = "mcp_url_elicitation";

const urlAnswerSchema: z.ZodType<McpUrlElicitationAnswer> = z
  .object({ action: z.enum(["accept", "decline", "cancel"]) })
  .strict();

/** Only web pages: a `javascript:` or `file:` link from a server is never put in front of the user. */
function isWebUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:";
  } catch {
    return false;
  }
}

/**
 * Answers one URL-mode `elicitation/create`: with a human, an `mcp_url_elicitation` slot asks
 * whether to open the server's page (accept / decline / cancel, no content); in serverMode or
 * without a display manager, or for a URL that is not http(s), it is declined. Like form mode,
 * the slot goes with the call the request came during, and leaves when the server cancels.
 */
export async function answerUrlElicitation(
  host: McpFeatureHost,
  serverId: string,
  params: ElicitRequestURLParams,
  signal: AbortSignal,
  callDisplay?: DisplayManagerAdapter,
): Promise<ElicitResult> {
  const dm = callDisplay ?? (host.displayManager as DisplayManagerAdapter | undefined);
  if (host.serverMode || !dm || !isWebUrl(params.url)) return { action: "decline" };
  const input: McpUrlElicitationInput = {
    serverId,
    message: params.message,
    url: params.url,
    elicitationId: params.elicitationId,
  };
  try {
    const answer = urlAnswerSchema.safeParse(
      await askOnce(dm, MCP_URL_ELICITATION_RENDERER, input, urlAnswerSchema, signal),
    );
    return answer.success ? answer.data : { action: "decline" };
  } catch (error) {
    if (
      GloveError.isInstance(error) &&
      (error.code === "GLOVE_DISPLAY_SLOT_REJECTED" || error.code === "GLOVE_DISPLAY_SLOT_CLOSED")
    ) {
      return { action: "cancel" };
    }
    throw error;
  }
}
