import { z } from "zod";
import { badRequest, quoted, tooLarge, zodIssues } from "../../errors.js";
import type { ResumeEntry } from "./interrupts.js";
import type { PageMessage } from "./page-ids.js";

/** Entries read from `messages`, `resume`, `tools` and `context` at most: more is a 413. */
const MAX_ITEMS = 10_000;

const id = z.string().min(1).max(200);

const textPart = z.object({ type: z.literal("text"), text: z.string() }).loose();
const otherPart = z.object({ type: z.string() }).loose();

/**
 * RunAgentInput (AG-UI 1.0) as this server reads it: the fields it uses are checked, anything
 * else is accepted and ignored (clients of older 0.x SDKs send fewer fields, newer ones more).
 */
const runAgentInput = z
  .object({
    threadId: id,
    runId: id,
    messages: z.array(z.object({ id, role: z.string(), content: z.unknown().optional() }).loose()),
    resume: z
      .array(
        z
          .object({
            interruptId: id,
            status: z.enum(["resolved", "cancelled"]),
            payload: z.unknown().optional(),
          })
          .loose(),
      )
      .optional(),
    tools: z.array(z.unknown()).optional(),
    context: z.array(z.unknown()).optional(),
    state: z.unknown().optional(),
    forwardedProps: z.unknown().optional(),
  })
  .loose();

/** What a run asks for. */
export interface RunRequest {
  threadId: string;
  runId: string;
  /** The user's new message: the last of `messages`, when it is a user message. */
  userMessage?: { id: string; text: string };
  /** The text of each earlier user message of `messages`, in order (undefined for non-text ones). */
  earlierUserTexts: Array<string | undefined>;
  /** Answers to the questions that ended the previous run. */
  resume?: ResumeEntry[];
  /** Every message of `messages`, as far as matching it to the thread's needs (page-ids.ts). */
  page: PageMessage[];
}

/** A message of `messages` as the page holds it; content that is not text reads as "". */
function pageMessage(message: { id: string; role: string; content?: unknown } & Record<string, unknown>): PageMessage {
  let text = "";
  if (typeof message.content === "string") text = message.content;
  else if (Array.isArray(message.content))
    text = message.content.flatMap((part: unknown) => textPart.safeParse(part).data?.text ?? []).join("\n");
  const page: PageMessage = { id: message.id, role: message.role, text };
  if (typeof message.toolCallId === "string") page.toolCallId = message.toolCallId;
  if (Array.isArray(message.toolCalls))
    page.toolCallIds = message.toolCalls.map((call: unknown) => String((call as { id?: unknown } | null)?.id ?? ""));
  return page;
}

/** A user message's content as text: a string, or its text parts joined. Other parts are refused. */
function userText(content: unknown, index: number): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) {
    throw badRequest(`messages[${index}].content must be a string or a list of text parts.`, [
      { path: `messages.${index}.content`, message: "must be a string or an array" },
    ]);
  }
  let text = "";
  content.forEach((part: unknown, n) => {
    const checked = textPart.safeParse(part);
    if (checked.success) {
      text += (text === "" ? "" : "\n") + checked.data.text;
      return;
    }
    const kind = otherPart.safeParse(part);
    throw badRequest(
      `messages[${index}].content[${n}] is ${kind.success ? `a ${quoted(kind.data.type)} part` : quoted(part)}; this agent takes text parts only.`,
      [{ path: `messages.${index}.content.${n}`, message: 'must be a text part { type: "text", text }' }],
    );
  });
  return text;
}

/**
 * Checks a RunAgentInput body: a 400 with one issue per bad field, a 413 for oversized lists or
 * text. Conversation history comes from the server's store: of `messages`, only the last one is
 * read, and only when it is a user message (the new one); the rest is what the client shows.
 */
export function parseRunInput(raw: Record<string, unknown>, limits: { textChars: number }): RunRequest {
  for (const key of ["messages", "resume", "tools", "context"]) {
    const list = raw[key];
    if (Array.isArray(list) && list.length > MAX_ITEMS)
      throw tooLarge(`${key} has ${list.length} entries; at most ${MAX_ITEMS} are accepted.`);
  }
  const parsed = runAgentInput.safeParse(raw);
  if (!parsed.success)
    throw badRequest("The body is not a valid AG-UI RunAgentInput; see issues.", zodIssues(parsed.error.issues));
  const { threadId, runId, messages, resume } = parsed.data;
  const request: RunRequest = { threadId, runId, earlierUserTexts: [], page: messages.map(pageMessage) };
  if (resume !== undefined && resume.length > 0) {
    request.resume = resume.map(({ interruptId, status, payload }) => ({
      interruptId,
      status,
      ...(payload !== undefined ? { payload } : {}),
    }));
  }
  const last = messages.at(-1);
  if (last?.role !== "user") return request;
  const index = messages.length - 1;
  const text = userText(last.content, index);
  if (text.trim() === "")
    throw badRequest(`messages[${index}] is an empty user message; send some text.`, [
      { path: `messages.${index}.content`, message: "must not be empty" },
    ]);
  if (text.length > limits.textChars)
    throw tooLarge(`The message has ${text.length} characters; the limit is ${limits.textChars}.`);
  request.userMessage = { id: last.id, text };
  request.earlierUserTexts = messages.slice(0, -1).flatMap((message, i) => {
    if (message.role !== "user") return [];
    try {
      return [userText(message.content, i)];
    } catch {
      return [undefined];
    }
  });
  return request;
}
