import type { DeliverInboxOptions, ModelAnswer } from "../types/index.js";
import { AbortError, throwIfAborted, toAbortError } from "../errors.js";
import type { GloveParts } from "../glove-parts.js";
import { usageSince, withUsage } from "../request-result.js";
import { repairForInterruptedTools } from "../stores/message-integrity.js";
import type { CompositePlugin } from "./composite.js";
import type { InboxPlugin } from "./inbox.js";

/** What a delivery turn needs of its Glove. */
export interface InboxDeliveryContext {
  parts: GloveParts;
  inbox: InboxPlugin;
  plugins: CompositePlugin;
  agent: string;
  /** The system prompt as it stands now. */
  systemPrompt(): string;
  /** True while a stored question waits for a person: that turn keeps the conversation. */
  waitingForPeople(): Promise<boolean>;
}

/**
 * A turn without a user message that delivers the inbox answers resolved so far (`inbox: { wake:
 * true }`): each answer is claimed in the store first (resolved → consumed, the first claim
 * wins), so of several processes delivering one conversation exactly one shows it to the model.
 * Undefined, having run nothing, when nothing was claimed or a stored question waits.
 */
export async function deliverInbox(
  d: InboxDeliveryContext,
  options: DeliverInboxOptions = {},
): Promise<ModelAnswer | undefined> {
  const { parts } = d;
  const { signal } = options;
  throwIfAborted(signal);
  if (await d.waitingForPeople()) return undefined;
  const used = usageSince(() => parts.promptMachine.usage);
  const claimed = await d.inbox.claimResolved();
  if (claimed.length === 0) return undefined;
  options.onClaimed?.(claimed);
  // Claimed answers are consumed: they are stored at once, before anything may fail or abort.
  const answers = d.inbox.deliveryMessages(claimed);
  const repair = repairForInterruptedTools(await parts.context.modelView(), answers);
  await parts.context.appendMessages(repair ? [repair, ...answers] : answers);
  // Other plugins contribute as for a request (the inbox's part: answers resolved meanwhile, the pending reminder).
  const contribution = await d.plugins.beforeRequest({ agent: d.agent, store: parts.store, signal });
  if (contribution.messages?.length) {
    await parts.context.appendMessages(contribution.messages);
    await contribution.onPersisted?.();
  }
  parts.promptMachine.setSystemPrompt(d.systemPrompt());
  try {
    return withUsage(await parts.agent.loop(undefined, signal, { systemPromptSuffix: contribution.reminder }), used());
  } catch (error) {
    if (signal?.aborted && !AbortError.isInstance(error)) throw toAbortError(signal.reason);
    throw error;
  }
}
