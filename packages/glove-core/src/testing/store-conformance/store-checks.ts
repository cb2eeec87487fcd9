/** Checks several conformance case files share: refusals with a code, and every message read at once. */
import { GloveError } from "../../errors.js";
import type { Message, StoreAdapter } from "../../types/index.js";
import { assert, assertEqual } from "./assertions.js";
import { hasCapability } from "./capabilities.js";
import type { StoreCapability } from "./types.js";

/** `call` must be refused with a GloveError of `code` (a synchronous throw counts). */
export async function assertRefused(call: () => unknown, what: string, code = "GLOVE_STORE_INVALID"): Promise<void> {
  let error: unknown;
  let refused = false;
  try {
    await call();
  } catch (e) {
    refused = true;
    error = e;
  }
  assert(refused, `${what} must be refused with ${code}, but it was accepted`);
  const got = GloveError.isInstance(error)
    ? error.code
    : `${error instanceof Error ? error.name : typeof error} (not a GloveError)`;
  assert(
    GloveError.isInstance(error) && error.code === code,
    `${what} must be refused with ${code}, got ${got}: ${error instanceof Error ? error.message : String(error)}`,
  );
}

function lastCompaction(messages: Message[]): number {
  let last = -1;
  messages.forEach((m, i) => {
    if (m.is_compaction === true) last = i;
  });
  return last;
}

/** Everything a message read sees, checked against `expected`. */
export async function assertMessages(
  store: StoreAdapter,
  expected: unknown[],
  when: string,
  required: ReadonlySet<StoreCapability>,
): Promise<void> {
  assertEqual(await store.getMessages(), expected, `getMessages() ${when}`);
  if (hasCapability(store, "messageCount", required))
    assertEqual(await store.messageCount!(), expected.length, `messageCount() ${when}`);
  if (hasCapability(store, "messagesSinceLastCompaction", required)) {
    const from = Math.max(lastCompaction(expected as Message[]), 0);
    assertEqual(
      await store.getMessagesSinceLastCompaction!(),
      expected.slice(from),
      `getMessagesSinceLastCompaction() ${when}`,
    );
  }
}
