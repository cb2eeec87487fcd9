import { HttpError, notFound, quoted } from "../errors.js";
import { runAgUi } from "../interop/ag-ui/run-route.js";
import { createConversation, deleteConversation, getConversation, listConversations } from "./conversations.js";
import { streamEvents } from "./events.js";
import type { RouteContext } from "./route-context.js";
import { editMessage, listBranches, regenerate, switchBranch } from "./branches.js";
import { answerSlot } from "./slots.js";
import { abortTurn, postMessage } from "./turns.js";

type Handler = (ctx: RouteContext) => Promise<Response>;

/** Path patterns below basePath; `:name` segments become params. */
const ROUTES: Array<{ pattern: string[]; methods: Record<string, Handler> }> = [
  { pattern: ["conversations"], methods: { POST: createConversation, GET: listConversations } },
  { pattern: ["conversations", ":id"], methods: { GET: getConversation, DELETE: deleteConversation } },
  { pattern: ["conversations", ":id", "events"], methods: { GET: streamEvents } },
  { pattern: ["conversations", ":id", "messages"], methods: { POST: postMessage } },
  { pattern: ["conversations", ":id", "abort"], methods: { POST: abortTurn } },
  { pattern: ["conversations", ":id", "slots", ":slotId"], methods: { POST: answerSlot } },
  { pattern: ["ag-ui"], methods: { POST: runAgUi } },
  { pattern: ["ag-ui", ":agent"], methods: { POST: runAgUi } },
  { pattern: ["conversations", ":id", "regenerate"], methods: { POST: regenerate } },
  { pattern: ["conversations", ":id", "messages", ":messageId", "edit"], methods: { POST: editMessage } },
  { pattern: ["conversations", ":id", "branches"], methods: { GET: listBranches } },
  { pattern: ["conversations", ":id", "branches", ":messageId"], methods: { POST: switchBranch } },
];

/** The handler for a path (below basePath) and method, with its params; 404/405 otherwise. */
export function route(segments: string[], method: string): { handler: Handler; params: Record<string, string> } {
  for (const { pattern, methods } of ROUTES) {
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      if (part.startsWith(":")) {
        params[part.slice(1)] = segments[i]!;
        return true;
      }
      return part === segments[i];
    });
    if (!matches) continue;
    const handler = methods[method];
    if (!handler) {
      throw new HttpError(
        405,
        "GLOVE_METHOD_NOT_ALLOWED",
        `${quoted(method)} is not supported here; use ${Object.keys(methods).join(" or ")}.`,
        {
          headers: { allow: Object.keys(methods).join(", ") },
        },
      );
    }
    return { handler, params };
  }
  throw notFound(`No route ${quoted(`${method} /${segments.join("/")}`)}. Routes start with /conversations.`);
}

/** The path below basePath as decoded segments, or undefined when the request is outside basePath. */
export function pathSegments(pathname: string, basePath: string): string[] | undefined {
  if (basePath && pathname !== basePath && !pathname.startsWith(`${basePath}/`)) return undefined;
  const rest = pathname.slice(basePath.length);
  try {
    return rest
      .split("/")
      .filter((s) => s !== "")
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}
