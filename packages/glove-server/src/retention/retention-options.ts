import { ConfigurationError } from "glove-core";

/**
 * What the server removes from storage on its own (`createGloveServer({ retention })`). Every rule
 * is off unless set: deleting people's data is a decision for the application, not a default.
 */
export interface GloveServerRetention {
  /**
   * Conversations with no activity (catalog `updatedAt`) for this many days are deleted with
   * everything they stored. A number for every agent, or days per agent name with `"*"` for the
   * rest (an agent missing without `"*"` keeps its conversations).
   */
  inactiveConversationDays?: number | Readonly<Record<string, number>>;
  /** Turn traces of turns started this many days ago are deleted (traces are also bounded per conversation). */
  traceDays?: number;
  /**
   * Settled questions and recorded steps of finished turns are deleted this many days after they
   * settled. Until then a settled question stays as a tombstone: a replayed answer still gets 409
   * and an AG-UI resume replay still finds it. Shorter than a client may retry an answer is a mistake.
   */
  settledWaitDays?: number;
  /** Branches set aside (regenerate, edit) beyond the newest this many per conversation are deleted. */
  branchesPerConversation?: number;
  /** How often a run starts. Default 60 000 ms (a minute: 200 ms of 60 s, at most 200 conversations a run, is about 288 000 a day). */
  intervalMs?: number;
  /** Conversations one run examines at most. Default 200. */
  batchSize?: number;
  /** A run stops after this much time, between two conversations, and the next continues there. Default 200 ms. */
  timeBudgetMs?: number;
  /**
   * Branches are pruned only in conversations without activity for this long (a conversation open
   * in another instance's memory may be showing them). Default 3 600 000 ms (1 hour).
   */
  quietMs?: number;
}

/** Retention options checked, with defaults; days as milliseconds. */
export interface ResolvedRetention {
  inactiveMs: (agent: string) => number | undefined;
  traceMs: number | undefined;
  settledWaitMs: number | undefined;
  branchesPerConversation: number | undefined;
  intervalMs: number;
  batchSize: number;
  timeBudgetMs: number;
  quietMs: number;
}

const DAY_MS = 86_400_000;

function refuse(name: string, value: unknown, expected: string): never {
  throw new ConfigurationError(
    `createGloveServer: retention.${name} must be ${expected}, got ${JSON.stringify(value)}. Leave it out to turn the rule off.`,
  );
}

function positive(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) refuse(name, value, "a positive number");
  return value;
}

function days(name: string, value: unknown): number | undefined {
  const checked = positive(name, value);
  return checked === undefined ? undefined : checked * DAY_MS;
}

function perAgent(value: GloveServerRetention["inactiveConversationDays"]): (agent: string) => number | undefined {
  if (value === undefined || typeof value === "number") {
    const ms = days("inactiveConversationDays", value);
    return () => ms;
  }
  if (typeof value !== "object" || value === null)
    refuse("inactiveConversationDays", value, 'a number of days, or days per agent name (with "*" for the rest)');
  const byAgent = new Map(
    Object.entries(value).map(([agent, d]) => [agent, days(`inactiveConversationDays[${JSON.stringify(agent)}]`, d)]),
  );
  return (agent) => (byAgent.has(agent) ? byAgent.get(agent) : byAgent.get("*"));
}

export function resolveRetention(options: GloveServerRetention): ResolvedRetention {
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError(
      `createGloveServer: retention must be an object of rules, e.g. { inactiveConversationDays: 90 }, got ${JSON.stringify(options)}.`,
    );
  const branches = options.branchesPerConversation;
  if (branches !== undefined && (!Number.isInteger(branches) || branches < 0))
    refuse("branchesPerConversation", branches, "a whole number, 0 or more");
  return {
    inactiveMs: perAgent(options.inactiveConversationDays),
    traceMs: days("traceDays", options.traceDays),
    settledWaitMs: days("settledWaitDays", options.settledWaitDays),
    branchesPerConversation: branches,
    intervalMs: positive("intervalMs", options.intervalMs) ?? 60_000,
    batchSize: Math.ceil(positive("batchSize", options.batchSize) ?? 200),
    timeBudgetMs: positive("timeBudgetMs", options.timeBudgetMs) ?? 200,
    quietMs: positive("quietMs", options.quietMs) ?? 3_600_000,
  };
}
