import { ConfigurationError } from "glove-core";
import type { ConversationHosting } from "../conversations/conversation-handle.js";
import type { Principal } from "../security/authenticate.js";
import type { ServerStorage } from "../storage/types.js";

/**
 * Extra routes mounted in a glove-server below `basePath/<path>/…` (Glove Studio is one). They
 * run after the server's host check, origin check and `authenticate`, so they are never reached
 * without a principal; what a principal may do there is the extension's own decision.
 */
export interface ServerExtension {
  /** The first path segment it answers below basePath, e.g. "studio". */
  readonly path: string;
  handle(context: ExtensionContext): Promise<Response>;
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
