import { ConfigurationError } from "glove-core";
import type { AgentVariant } from "../agents/agent-override.js";
import type { ConversationHandle, ConversationHosting } from "../conversations/conversation-handle.js";
import type { Principal } from "../security/authenticate.js";
import type { ConversationRecord, ServerStorage } from "../storage/types.js";

/**
 * Extra routes mounted in a glove-server below `basePath/<path>/…` (Glove Studio is one). They
 * run after the server's host check, origin check and `authenticate`, so they are never reached
 * without a principal; what a principal may do there is the extension's own decision.
 */
export interface ServerExtension {
  /** The first path segment it answers below basePath, e.g. "studio". */
  readonly path: string;
  handle(context: ExtensionContext): Promise<Response>;
  /**
   * Agents served under other names with an override of their factory (e.g. Glove Studio's fork
   * "on another model"). Only the extension creates conversations of them; the names must not be
   * the server's agents' or another extension's variants'.
   */
  readonly agentVariants?: Readonly<Record<string, AgentVariant>>;
}

/** What an extension gets for one request: the caller and the server's storage and conversations. */
export interface ExtensionContext {
  request: Request;
  url: URL;
  principal: Principal;
  /** Decoded path segments after the extension's own. */
  segments: string[];
  /** Where the extension is mounted, e.g. "/api/glove/studio". */
  mountPath: string;
  storage: ServerStorage;
  /** The server's conversations: open one to answer its questions or abort its turn. */
  host: ConversationHosting;
  /** What the conversation routes do for a caller (quotas, limits, new conversations), for this request's principal. */
  turns: ExtensionTurns;
}

const SEGMENT = /^[a-z0-9][a-z0-9._-]*$/;

/** The extensions by path, refusing names that collide with the server's routes or each other. */
export function extensionsByPath(extensions: readonly ServerExtension[] | undefined): Map<string, ServerExtension> {
  const byPath = new Map<string, ServerExtension>();
  for (const extension of extensions ?? []) {
    if (
      !extension ||
      typeof extension.handle !== "function" ||
      typeof extension.path !== "string" ||
      !SEGMENT.test(extension.path)
    ) {
      throw new ConfigurationError(
        'createGloveServer: each extension needs a path (one lower-case URL segment, e.g. "studio") and handle(context).',
      );
    }
    if (extension.path === "conversations" || byPath.has(extension.path)) {
      throw new ConfigurationError(
        `createGloveServer: extension path ${JSON.stringify(extension.path)} is already taken.`,
      );
    }
    byPath.set(extension.path, extension);
  }
  return byPath;
}

/**
 * What the conversation routes do for their caller, offered to an extension acting for its own
 * caller (Glove Studio's playground): the same quotas, limits and records, not a second turn path.
 * Turns themselves run through the conversation's handle (`host.open(...)`), as the routes run them.
 */
export interface ExtensionTurns {
  /**
   * Runs `start` (a message, a regenerate, an edit on `conversation`'s handle) within the caller's
   * turn quotas (429 past them), holding one running-turn slot until the turn settles.
   */
  admitTurn<T extends { turnId: string; duplicate?: boolean }>(
    conversation: ConversationHandle,
    start: () => Promise<T>,
  ): Promise<T>;
  /** A message's text as the routes accept it (400 when empty, 413 past the server's limit). */
  messageText(body: Record<string, unknown>): string;
  /**
   * Stores a new, empty conversation owned by the caller, within their conversation quotas. `agent`
   * is one of the server's agents or a variant an extension declared (400 otherwise).
   */
  createConversation(agent: string): Promise<ConversationRecord>;
}

/** Every extension's agent variants, refusing names taken by an agent or another variant. */
export function extensionVariants(
  byPath: ReadonlyMap<string, ServerExtension>,
  agentNames: readonly string[],
): Map<string, AgentVariant> {
  const variants = new Map<string, AgentVariant>();
  for (const extension of byPath.values()) {
    for (const [name, variant] of Object.entries(extension.agentVariants ?? {})) {
      if (agentNames.includes(name) || variants.has(name)) {
        throw new ConfigurationError(`createGloveServer: agent variant ${JSON.stringify(name)} is already taken.`);
      }
      if (!variant || !agentNames.includes(variant.agent) || typeof variant.override !== "object") {
        throw new ConfigurationError(
          `createGloveServer: agent variant ${JSON.stringify(name)} needs { agent: one of ${agentNames.join(", ")}, override }.`,
        );
      }
      variants.set(name, variant);
    }
  }
  return variants;
}
