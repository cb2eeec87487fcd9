import { ConfigurationError } from "glove-core";
import type { ConversationHosting } from "../conversations/conversation-handle.js";
import type { ServerStorage } from "../storage/types.js";
import { purgeOwnerRows, type OwnerPurgeReport } from "./owner-purge.js";
import { RetentionError } from "./retention-error.js";
import { resolveRetention, type GloveServerRetention } from "./retention-options.js";
import { retentionPass, type RetentionContext, type RetentionReport } from "./retention-pass.js";

/** Retention and the owner purge of one server. */
export interface ServerRetention {
  /** One bounded run now (after the one in progress, if any). */
  run(): Promise<RetentionReport>;
  purgeOwner(owner: string): Promise<OwnerPurgeReport>;
  /** Stops the background runs and waits for the one in progress. */
  stop(): Promise<void>;
}

/**
 * Sets up retention for `storage`: background runs every `intervalMs` when `options` are given
 * (the timer does not keep the process alive), and the owner purge always.
 */
export function serverRetention(
  options: GloveServerRetention | undefined,
  storage: ServerStorage,
  host: () => ConversationHosting & { peek?(id: string): unknown },
  log: (message: string, error?: unknown) => void,
): ServerRetention {
  const rules = options === undefined ? undefined : resolveRetention(options);
  const db = storage.retention;
  if (rules && !db)
    throw new ConfigurationError(
      "createGloveServer: retention needs a storage that supports it: sqliteStorage() or postgresStorage() (a memoryStorage or a store factory does not). Remove retention or change the store.",
    );
  let cursor = "";
  let last: Promise<unknown> = Promise.resolve();
  let timer: ReturnType<typeof setInterval> | undefined;

  const run = (): Promise<RetentionReport> => {
    if (!rules || !db)
      return Promise.reject(
        new RetentionError(
          "Retention is off: pass createGloveServer({ retention: { … } }) with at least one rule to run it.",
        ),
      );
    const ctx: RetentionContext = {
      db,
      rules,
      now: Date.now,
      inMemory: (id) => host().peek?.(id) !== undefined,
    };
    const next = last.then(async () => {
      const outcome = await db.exclusive(() => retentionPass(ctx, cursor));
      if (!outcome) return { ran: false, examined: 0, conversationsDeleted: 0, rowsDeleted: 0, wrapped: false };
      cursor = outcome.cursor;
      return outcome.report;
    });
    last = next.catch(() => undefined);
    return next;
  };

  if (rules) {
    timer = setInterval(
      () => void run().catch((error) => log("glove-server: a retention run failed", error)),
      rules.intervalMs,
    );
    timer.unref?.();
  }

  return {
    run,
    async purgeOwner(owner) {
      if (typeof owner !== "string" || owner === "")
        throw new ConfigurationError(
          `purgeOwner needs the principal id (a non-empty string), got ${JSON.stringify(owner)}.`,
        );
      const forget = (id: string) => host().forget(id);
      if (db) return purgeOwnerRows(db, owner, forget);
      return purgeThroughCatalog(storage, owner, forget);
    },
    async stop() {
      if (timer) clearInterval(timer);
      await last;
    },
  };
}

/** The purge of a storage without SQL of its own (memoryStorage, a store factory): what its catalog and delete reach. */
async function purgeThroughCatalog(
  storage: ServerStorage,
  owner: string,
  forget: (id: string) => Promise<void>,
): Promise<OwnerPurgeReport> {
  const report: OwnerPurgeReport = { conversations: 0, rows: 0 };
  for (;;) {
    const records = await storage.catalog.listByOwner(owner, 100);
    if (records.length === 0) return report;
    for (const { id } of records) {
      await forget(id);
      await storage.catalog.delete(id);
      await storage.delete?.(id);
      report.conversations += 1;
    }
  }
}
