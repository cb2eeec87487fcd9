import {
  branchPoints,
  storeKeepsBranches,
  type BranchRewrite,
  type InboxItem,
  type Message,
  type StoreAdapter,
  type Task,
} from "glove-core";
import type { SessionEvent } from "../types/wire.js";

const TASK_WRITES = new Set(["addTasks", "updateTask", "replaceTasks"]);
const INBOX_WRITES = new Set(["addInboxItem", "updateInboxItem", "consumeInboxItem"]);

/**
 * The store as the tab's Glove sees it, reporting what was persisted as the same events
 * glove-server sends (`messages_appended`, `tasks`, `inbox`), so local mode keeps its history as
 * exact as server mode. Optional capabilities stay exactly as present or absent on `inner`
 * (glove-core enables the task and inbox tools from them).
 */
export function observeStore(
  inner: StoreAdapter,
  emit: (event: SessionEvent) => void,
  messageCount: number,
): StoreAdapter {
  let count = messageCount;
  const append = async (messages: Message[]) => {
    await inner.appendMessages(messages);
    // Some stores add a repair message of their own before the batch: re-read what is new then.
    const total = inner.messageCount ? await inner.messageCount() : count + messages.length;
    if (total - messages.length > count) {
      const added = (await inner.getMessages()).slice(count);
      emit({ type: "messages_appended", messages: added, startIndex: count });
    } else {
      emit({ type: "messages_appended", messages: structuredClone(messages), startIndex: total - messages.length });
    }
    count = total;
  };
  const rewrite = async (change: BranchRewrite) => {
    const outcome = await inner.rewriteBranches!(change);
    if (outcome.won) {
      count = change.keep + change.append.length;
      emit({
        type: "branches_changed",
        keep: change.keep,
        messages: structuredClone(change.append),
        points: await readBranchPoints(inner),
      });
    }
    return outcome;
  };
  const refreshTasks = async () => {
    if (inner.getTasks) emit({ type: "tasks", tasks: await inner.getTasks() });
  };
  const refreshInbox = async () => {
    if (inner.getInboxItems) emit({ type: "inbox", items: await inner.getInboxItems() });
  };
  return new Proxy(inner, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      const name = String(key);
      if (name === "appendMessages") return append;
      // Hidden: a model call then arrives as appendMessages (reported above) and the counter calls.
      if (name === "recordModelCall") return undefined;
      if (name === "rewriteBranches") return rewrite;
      const method = value as (...args: unknown[]) => unknown;
      if (TASK_WRITES.has(name))
        return async (...args: unknown[]) => (await method.apply(target, args), await refreshTasks());
      if (INBOX_WRITES.has(name)) {
        return async (...args: unknown[]) => {
          const result = await method.apply(target, args);
          await refreshInbox();
          return result;
        };
      }
      return method.bind(target);
    },
  });
}

/** The branch points of the active branch as the store holds it (none without branches). */
export async function readBranchPoints(store: StoreAdapter) {
  return storeKeepsBranches(store) ? branchPoints(await store.getMessages(), await store.getBranches()) : [];
}

/** Reads the side lists again (another process may have resolved an inbox item). */
export async function readSideLists(store: StoreAdapter): Promise<{ tasks: Task[]; inbox: InboxItem[] }> {
  const [tasks, inbox] = await Promise.all([store.getTasks?.() ?? [], store.getInboxItems?.() ?? []]);
  return { tasks, inbox };
}
