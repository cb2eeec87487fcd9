import type { StudioAuditEntry, StudioAuditLog } from "../types/audit.js";

/**
 * The default audit log: the newest `capacity` entries in this process's memory. It lasts as long
 * as the server; pass `createStudio({ audit })` a log that writes somewhere durable to keep them.
 */
export function memoryAuditLog(capacity = 10_000): StudioAuditLog {
  const entries: StudioAuditEntry[] = [];
  return {
    record(entry) {
      entries.push(entry);
      if (entries.length > capacity) entries.splice(0, entries.length - capacity);
    },
    list({ conversationId, limit }) {
      const chosen =
        conversationId === undefined ? entries : entries.filter((e) => e.conversationId === conversationId);
      return chosen.slice(-limit).reverse();
    },
  };
}
