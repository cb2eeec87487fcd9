import { describe } from "vitest";
import { memoryStorage } from "glove-server";
import { inspectorCases } from "./inspector-cases.js";

describe("storage inspection in memory", () => {
  inspectorCases(async (traces) => memoryStorage(traces ? { traces } : {}));
});
