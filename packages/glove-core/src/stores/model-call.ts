import type { ModelCallRecord, StoreAdapter, TokenConsumptionCounter } from "../types/index.js";

const STEPS = ["appendMessages", "addTokens", "incrementTurn"] as const;

/**
 * Whether `store` still runs `base`'s own `appendMessages`, `addTokens` and `incrementTurn`. A
 * subclass that changed one of them (to persist elsewhere, to log) would be bypassed by a store's
 * direct `recordModelCall`: it gets the model call as those three calls instead.
 */
export function runsOwnModelCallSteps(store: StoreAdapter, base: object): boolean {
  const own = base as Record<(typeof STEPS)[number], unknown>;
  return STEPS.every((name) => store[name] === own[name]);
}

/**
 * A model call as the three calls, for a subclass that changed one of them. `checkTokens` refuses
 * a bad count first and the append comes next, so a refusal of either still writes nothing.
 */
export async function recordModelCallInSteps(
  store: StoreAdapter,
  call: ModelCallRecord,
  checkTokens: (tokens: TokenConsumptionCounter) => Promise<void> | void,
): Promise<void> {
  await checkTokens(call?.tokens);
  await store.appendMessages(call.messages);
  await store.addTokens(call.tokens);
  await store.incrementTurn();
}
