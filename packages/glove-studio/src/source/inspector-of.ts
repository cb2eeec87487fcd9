import { ConfigurationError } from "glove-core";
import type { ServerStorage, StorageInspector } from "glove-server";

/** The storage's own inspector (`storage.inspect`: every ServerStorage of glove-server has one), or the one given. */
export function inspectorOf(storage: ServerStorage, given?: StorageInspector): StorageInspector {
  if (given) return given;
  const inspector = storage.inspect;
  if (!inspector || typeof inspector.listConversations !== "function") {
    throw new ConfigurationError(
      "glove-studio: this storage has no inspector; pass `inspector` (a StorageInspector) with it.",
    );
  }
  return inspector;
}
