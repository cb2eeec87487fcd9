import { ConfigurationError } from "glove-core";
import { HttpError, type ServerExtension } from "glove-server";
import { memoryAuditLog } from "../act/audit-log.js";
import { hostedActions } from "../act/hosted-actions.js";
import { conversationRecord } from "../api/conversation-detail.js";
import { handleStudio } from "../http/studio-handler.js";
import { conversationEvents } from "../live/conversation-events.js";
import { errorJson } from "../http/responses.js";
import { inspectorOf } from "../source/inspector-of.js";
import { DEFAULT_UI_DIR } from "../source/ui-dir.js";
import type { CreateStudioOptions, StudioData } from "../types/studio.js";

const log = (message: string, error: unknown) => console.error(message, error);

/**
 * Glove Studio as a glove-server extension: `createGloveServer({ …, extensions: [createStudio({ allow })] })`
 * serves it at `<basePath>/studio/` behind the server's authenticate, to the principals `allow` admits.
 */
export function createStudio(options: CreateStudioOptions): ServerExtension {
  if (!options || typeof options.allow !== "function") {
    throw new ConfigurationError(
      "createStudio needs allow: (principal) => boolean. The studio shows every owner's conversations; say who may see them (e.g. admins).",
    );
  }
  const path = options.path ?? "studio";
  const uiDir = options.uiDir ?? DEFAULT_UI_DIR;
  const audit = options.audit ?? memoryAuditLog();
  const variants = Object.keys(options.variants ?? {});
  return {
    path,
    // The server opens a fork's variant as its agent with the override (and refuses clashing names).
    ...(options.variants ? { agentVariants: options.variants } : {}),
    async handle(context) {
      try {
        if (!(await options.allow(context.principal))) {
          throw new HttpError(403, "GLOVE_STUDIO_FORBIDDEN", "You are signed in, but not allowed to open the studio.");
        }
      } catch (error) {
        return errorJson(error, log);
      }
      // Relative asset and API URLs need the page at ".../studio/", not ".../studio".
      if (context.segments.length === 0 && !context.url.pathname.endsWith("/")) {
        return new Response(null, { status: 308, headers: { location: `${context.mountPath}/` } });
      }
      const inspector = options.inspector ?? context.storage.inspect;
      if (!inspector) {
        const error = new HttpError(
          503,
          "GLOVE_STUDIO_NO_INSPECTOR",
          "This server's storage has no inspector: pass createStudio({ inspector }).",
        );
        return errorJson(error, log);
      }
      const data: StudioData = { storage: context.storage, inspector: inspectorOf(context.storage, inspector) };
      const info = {
        mode: "mounted" as const,
        canAct: true,
        source: "this server's storage",
        ...(variants.length > 0 ? { variants } : {}),
      };
      // The page follows a conversation through its events, read as its owner would.
      const events = async (id: string, after: number | undefined) => {
        const record = await conversationRecord(data, id);
        const handle = await context.host.open(record, { id: record.owner });
        if (after !== undefined) await handle.catchUp?.(after);
        return conversationEvents(handle, after);
      };
      return handleStudio(
        { data, info, actions: hostedActions(context, data, audit, variants), events, uiDir, log },
        context.request,
        context.segments,
        context.url,
      );
    },
  };
}
