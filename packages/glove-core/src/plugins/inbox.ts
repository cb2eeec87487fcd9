import * as z from "zod";
import { ConfigurationError } from "../errors.js";
import type { GlovePlugin, InboxItem, Message, RequestContribution, StoreAdapter, Tool } from "../types/index.js";
import { mapPacked } from "../runtime/shapes.js";

/** Name of the built-in tool the model uses to post to the async inbox. */
export const INBOX_TOOL_NAME = "glove_post_to_inbox";

type InboxStore = Required<
  Pick<StoreAdapter, "getInboxItems" | "addInboxItem" | "updateInboxItem" | "getResolvedInboxItems">
> &
  StoreAdapter;

const inboxToolSchema = z.object({
  tag: z.string().min(1).describe('A short label for what you are waiting on, e.g. "restock_oat_milk".'),
  request: z.string().min(1).describe("What you need answered, in plain language, for whoever resolves it."),
  blocking: z
    .boolean()
    .optional()
    .describe("True when you cannot continue this task until the answer arrives. Default false."),
});

/** What the model sends to the inbox tool. */
export type InboxToolInput = z.infer<typeof inboxToolSchema>;

/** True when the store has all four inbox methods. */
export function storeSupportsInbox(store: StoreAdapter): store is InboxStore {
  return Boolean(store.getInboxItems && store.addInboxItem && store.updateInboxItem && store.getResolvedInboxItems);
}

/** The built-in `glove_post_to_inbox` tool. */
export function createInboxTool(store: InboxStore): Tool<InboxToolInput> {
  return {
    name: INBOX_TOOL_NAME,
    description:
      "Post a request that cannot be answered right now (an approval, a restock, a slow job) to the async inbox. " +
      "Someone outside this conversation resolves it later; the answer arrives as a later message in this conversation. " +
      "Do not poll for it.",
    input_schema: inboxToolSchema,
    async run(input) {
      const item: InboxItem = {
        id: crypto.randomUUID(),
        tag: input.tag,
        request: input.request,
        response: null,
        status: "pending",
        blocking: input.blocking ?? false,
        created_at: new Date().toISOString(),
        resolved_at: null,
      };
      await store.addInboxItem(item);
      return {
        status: "success",
        data:
          `Posted to the inbox as ${item.id} (${item.tag}). The answer will arrive as a later message in this conversation; you do not need to check for it.` +
          (item.blocking
            ? " This item is blocking: tell the user you are waiting on it and do not proceed with work that depends on it."
            : ""),
        renderData: { item },
      };
    },
  };
}

function describeResolved(item: InboxItem): Message {
  return {
    sender: "user",
    text: `[Inbox] The answer to "${item.tag}" has arrived.\nYour request: ${item.request}\nAnswer: ${item.response ?? "(no text)"}`,
  };
}

function describePending(items: InboxItem[]): string | undefined {
  if (items.length === 0) return undefined;
  const lines = items.map(
    (i) =>
      `- ${i.tag} (${i.blocking ? "blocking — do not proceed with dependent work" : "non-blocking"}): ${i.request}`,
  );
  return `Inbox items still waiting for an answer (posted earlier, do not post them again):\n${lines.join("\n")}`;
}

/** A store that can claim answers: `inbox: { wake: true }` needs it. */
export type ClaimingInboxStore = InboxStore & Required<Pick<StoreAdapter, "consumeInboxItem">>;

/** True when the store can claim inbox answers (`consumeInboxItem`, the conditional resolved → consumed). */
export function storeClaimsInbox(store: StoreAdapter): store is ClaimingInboxStore {
  return storeSupportsInbox(store) && typeof store.consumeInboxItem === "function";
}

/**
 * Owns `glove_post_to_inbox`, injects resolved answers into the next request and reminds the
 * model of pending items for the current request only. By default answers are stored and then
 * marked consumed (a crash in between delivers twice, never loses). A claiming plugin
 * (`inbox: { wake: true }`) claims each answer first, so of several processes exactly one delivers it.
 */
export class InboxPlugin implements GlovePlugin {
  readonly name = "glove:inbox";
  private readonly tool: Tool<unknown>;
  private readonly claiming: ClaimingInboxStore | undefined;

  constructor(
    private readonly store: InboxStore,
    options: { claim?: boolean } = {},
  ) {
    this.tool = createInboxTool(store) as Tool<unknown>;
    if (options.claim && !storeClaimsInbox(store)) {
      throw new ConfigurationError(
        `inbox: { wake: true } needs a store with consumeInboxItem (store "${store.identifier}" has none): answers are claimed there so they are delivered once.`,
      );
    }
    this.claiming = options.claim ? (store as ClaimingInboxStore) : undefined;
  }

  /** True when answers are claimed before they are delivered (they may then start a turn). */
  get claims(): boolean {
    return this.claiming !== undefined;
  }

  tools(): readonly Tool<unknown>[] {
    return [this.tool];
  }

  /** Claims every resolved answer it can (the others went to another process); claiming plugins only. */
  async claimResolved(): Promise<InboxItem[]> {
    const store = this.claiming;
    if (!store) return [];
    const won: InboxItem[] = [];
    for (const item of await store.getResolvedInboxItems()) {
      if (await store.consumeInboxItem(item.id)) won.push({ ...item, status: "consumed" });
    }
    return won;
  }

  /** The messages that deliver claimed answers. */
  deliveryMessages(items: InboxItem[]): Message[] {
    return items.map(describeResolved);
  }

  async beforeRequest(): Promise<RequestContribution> {
    const claimed = this.claiming ? await this.claimResolved() : undefined;
    const resolved = claimed ?? (await this.store.getResolvedInboxItems());
    const pending: InboxItem[] = [];
    for (const item of await this.store.getInboxItems()) if (item.status === "pending") pending.push(item);
    return {
      messages: mapPacked(resolved, describeResolved),
      reminder: describePending(pending),
      // Marked only after the answers are stored: a crash in between re-delivers, never loses.
      onPersisted:
        resolved.length && !claimed
          ? async () => {
              for (const item of resolved) await this.store.updateInboxItem(item.id, { status: "consumed" });
            }
          : undefined,
    };
  }
}
