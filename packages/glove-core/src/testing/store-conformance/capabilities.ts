import type { StoreAdapter } from "../../types/index.js";
import { StoreConformanceError } from "./assertions.js";
import type { StoreCapability } from "./types.js";

const GROUPS: Record<StoreCapability, Array<keyof StoreAdapter>> = {
  tasks: ["getTasks", "addTasks", "updateTask"],
  replaceTasks: ["replaceTasks"],
  permissions: ["getPermission", "setPermission"],
  inbox: ["getInboxItems", "addInboxItem", "updateInboxItem", "getResolvedInboxItems"],
  consumeInboxItem: ["consumeInboxItem"],
  waits: ["addWait", "settleWait", "getWaits"],
  subAgentStores: ["createSubAgentStore"],
  messageCount: ["messageCount"],
  messagesSinceLastCompaction: ["getMessagesSinceLastCompaction"],
  messagePage: ["getMessagePage"],
  branches: ["getBranches", "rewriteBranches"],
  recordModelCall: ["recordModelCall"],
};

/**
 * Whether `store` implements the group. Throws when the group is half-implemented (some methods
 * but not all), or when it is absent but listed in `required`.
 */
export function hasCapability(
  store: StoreAdapter,
  capability: StoreCapability,
  required: ReadonlySet<StoreCapability>,
): boolean {
  const methods = GROUPS[capability];
  const present = methods.filter((m) => typeof store[m] === "function");
  if (present.length > 0 && present.length < methods.length) {
    const missing = methods.filter((m) => !present.includes(m));
    throw new StoreConformanceError(
      `store "${store.identifier}" implements ${present.join(", ")} but not ${missing.join(", ")}: the ${capability} group is all or nothing`,
    );
  }
  if (present.length === 0 && required.has(capability)) {
    throw new StoreConformanceError(
      `store "${store.identifier}" must implement ${methods.join(", ")} (${capability} is required)`,
    );
  }
  return present.length > 0;
}

export type WithTasks = StoreAdapter & Required<Pick<StoreAdapter, "getTasks" | "addTasks" | "updateTask">>;
export type WithInbox = StoreAdapter &
  Required<Pick<StoreAdapter, "getInboxItems" | "addInboxItem" | "updateInboxItem" | "getResolvedInboxItems">>;
export type WithPermissions = StoreAdapter & Required<Pick<StoreAdapter, "getPermission" | "setPermission">>;
export type WithWaits = StoreAdapter & Required<Pick<StoreAdapter, "addWait" | "settleWait" | "getWaits">>;
export type WithSubStores = StoreAdapter & Required<Pick<StoreAdapter, "createSubAgentStore">>;
