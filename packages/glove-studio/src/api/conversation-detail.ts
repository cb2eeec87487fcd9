import type { StoredWait } from "glove-core";
import { HttpError, type ConversationRecord, type ConversationSummary } from "glove-server";
import type { ConversationDetail, StudioData, StudioQuestion } from "../types/studio.js";
import { lightTrace } from "./model-calls.js";

const TRACES_SHOWN = 50;

export const conversationNotFound = (id: string) =>
  new HttpError(404, "GLOVE_STUDIO_NOT_FOUND", `No conversation ${JSON.stringify(id.slice(0, 100))} in this storage.`);

/** The stored record, or a 404 (ids are looked up as given; nothing is created). */
export async function conversationRecord(data: StudioData, id: string): Promise<ConversationRecord> {
  const record = id.length <= 200 ? await data.storage.catalog.get(id) : undefined;
  if (!record) throw conversationNotFound(id);
  return record;
}

/** The record with its status as the list computes it (running, waiting for a person, error, idle). */
async function summary(data: StudioData, record: ConversationRecord): Promise<ConversationSummary> {
  // By id: an indexed lookup (pages read it again every few seconds), not a search.
  const page = await data.inspector.listConversations({ id: record.id, limit: 1 });
  return (
    page.items.find((item) => item.id === record.id) ?? { ...record, status: record.runningTurnId ? "running" : "idle" }
  );
}

function question(wait: StoredWait): StudioQuestion {
  const shown: StudioQuestion = {
    id: wait.id,
    toolCallId: wait.toolCallId,
    toolName: wait.toolName,
    renderer: wait.renderer,
    input: wait.input,
    status: wait.status,
    createdAt: wait.created_at,
    settledAt: wait.settled_at,
  };
  if (wait.status !== "pending") shown.answer = wait.value;
  return shown;
}

/** GET api/conversations/:id */
export async function conversationDetail(data: StudioData, id: string): Promise<ConversationDetail> {
  const record = await conversationRecord(data, id);
  const store = await data.storage.store(id);
  const [conversation, tasks, inbox, waits, traces, first, branches] = await Promise.all([
    summary(data, record),
    store.getTasks?.() ?? [],
    store.getInboxItems?.() ?? [],
    store.getWaits?.() ?? [],
    data.inspector.traces.list(id, { limit: TRACES_SHOWN }),
    data.inspector.messages(id, { offset: 0, limit: 1 }),
    store.getBranches?.() ?? [],
  ]);
  const questions = waits.filter((w) => w.kind === "question").map(question);
  return {
    conversation,
    tasks,
    inbox,
    questions,
    traces: traces.map(lightTrace),
    messageCount: first.total,
    branches,
  };
}
