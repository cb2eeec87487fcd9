import type { BranchInfo, Message } from "glove-core";
import { HttpError, MAX_INSPECT_PAGE, type ConversationRecord, type ExtensionContext } from "glove-server";
import { conversationRecord } from "../api/conversation-detail.js";
import { badQuery } from "../http/responses.js";
import type { StudioAction, StudioAuditLog } from "../types/audit.js";
import type { ForkRequest, StudioActions, StudioData } from "../types/studio.js";

/**
 * The studio's actions, mounted: each goes through the server's hosting — the conversation's handle,
 * the same `startTurn` / `regenerate` / `editMessage` / `switchBranch` the routes call, within the
 * acting user's quotas — so a turn started here is the app's turn, streamed to every client.
 */
export function hostedActions(
  context: ExtensionContext,
  data: StudioData,
  audit: StudioAuditLog,
  variants: readonly string[],
): StudioActions {
  const actor = context.principal;
  const note = async (action: StudioAction, record: ConversationRecord, target?: string) => {
    // Acting on one's own conversation is what the app's routes let anyone do; others' is audited.
    if (record.owner === actor.id) return;
    const entry = {
      at: new Date().toISOString(),
      actor: actor.id,
      action,
      conversationId: record.id,
      owner: record.owner,
    };
    await audit.record(target === undefined ? entry : { ...entry, target });
  };
  // The agent sees the conversation's owner, as when the owner acts from the app.
  const open = async (id: string) => {
    const record = await conversationRecord(data, id);
    return { record, handle: await context.host.open(record, { id: record.owner }) };
  };
  const acted = async <T>(
    action: StudioAction,
    id: string,
    run: (h: Awaited<ReturnType<typeof open>>) => Promise<T>,
    target?: string,
  ) => {
    const opened = await open(id);
    const result = await run(opened);
    await note(action, opened.record, target);
    return result;
  };
  return {
    answer: (id, slotId, answer) => acted("answer", id, ({ handle }) => handle.answerSlot(slotId, answer), slotId),
    abort: (id) => acted("abort", id, ({ handle }) => handle.abortTurn()),
    send: (id, body) => {
      const text = context.turns.messageText(body);
      return acted("message", id, ({ handle }) =>
        context.turns.admitTurn(handle, () => handle.startTurn(text, undefined)),
      );
    },
    regenerate: (id) =>
      acted("regenerate", id, ({ handle }) => context.turns.admitTurn(handle, () => handle.regenerate())),
    edit: (id, messageId, body) => {
      const text = context.turns.messageText(body);
      const run = ({ handle }: Awaited<ReturnType<typeof open>>) =>
        context.turns.admitTurn(handle, () => handle.editMessage(messageId, text));
      return acted("edit", id, run, messageId);
    },
    branches: async (id): Promise<BranchInfo> => (await open(id)).handle.branches(),
    switchBranch: (id, messageId) =>
      acted("switch_branch", id, ({ handle }) => handle.switchBranch(messageId), messageId),
    fork: async (id, request) => {
      const source = await conversationRecord(data, id);
      const agent = forkAgent(source, request, variants);
      const copied = await forkedMessages(data, id, request.at);
      // The fork is the actor's: their quotas, their listing, their identity when its tools run.
      const record = await context.turns.createConversation(agent);
      const store = await context.storage.store(record.id);
      await store.appendMessages(copied);
      // Titled as any conversation is, by its first message (the server titles only on a first turn).
      const first = copied
        .find((m) => m.sender === "user")
        ?.text.trim()
        .slice(0, 80);
      if (first) await context.storage.catalog.update(record.id, { title: first });
      await note("fork", source, record.id);
      return { id: record.id, agent, owner: record.owner, messages: copied.length };
    },
    audit: async (query) => audit.list(query),
  };
}

function forkAgent(source: ConversationRecord, request: ForkRequest, variants: readonly string[]): string {
  if (request.variant === undefined) return source.agent;
  if (!variants.includes(request.variant)) {
    throw badQuery("variant", `must be one of the studio's variants: ${variants.join(", ") || "(none configured)"}`);
  }
  return request.variant;
}

/**
 * Messages 0..at of the active branch, without their ids (the new store gives its own). A tool
 * call is never cut from its results: forking at an agent's tool call takes the results with it.
 */
async function forkedMessages(data: StudioData, id: string, at: number): Promise<Message[]> {
  const page = await data.inspector.messages(id, { offset: 0, limit: 1 });
  if (at >= page.total) throw badQuery("at", `must be a message index below ${page.total}`);
  const messages: Message[] = [];
  while (messages.length <= at + 1 && messages.length < page.total) {
    const next = await data.inspector.messages(id, { offset: messages.length, limit: MAX_INSPECT_PAGE });
    if (next.messages.length === 0) break;
    messages.push(...next.messages);
  }
  let end = at + 1;
  if (messages[at]?.tool_calls?.length && messages[end]?.tool_results?.length) end += 1;
  if (end > messages.length) throw new HttpError(409, "GLOVE_STUDIO_CHANGED", "The conversation changed; try again.");
  return messages.slice(0, end).map(({ id: _id, ...message }) => message);
}
