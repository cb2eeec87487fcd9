/**
 * StoreAdapter conformance suite (docs/concepts/stores.md): one set of behavioural checks that
 * every store — MemoryStore, SqliteStore, PostgresStore, yours — must pass. Framework-agnostic
 * and browser-safe: each case is a plain async function that throws a descriptive `Error` on the
 * first violation, so it runs under vitest, jest, mocha, node:test or a bare script.
 *
 * ```ts
 * import { describe, it } from "vitest";
 * import { storeConformanceCases } from "glove-core/testing";
 *
 * describe("MyStore conformance", () => {
 *   const cases = storeConformanceCases({
 *     createStore: async (sessionId) => new MyStore({ sessionId }),
 *     cleanup: async () => {}, // after every case: close what createStore opened
 *     require: ["tasks", "permissions", "inbox", "subAgentStores"],
 *   });
 *   for (const c of cases) it(c.name, c.run);
 * });
 * ```
 */

export { storeConformanceCases } from "./store-conformance/cases.js";
export { conformanceMessages } from "./store-conformance/fixtures.js";
export { StoreConformanceError } from "./store-conformance/assertions.js";
export type { StoreCapability, StoreConformanceCase, StoreConformanceOptions } from "./store-conformance/types.js";
