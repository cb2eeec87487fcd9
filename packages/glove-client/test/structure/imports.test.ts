import { fileURLToPath } from "node:url";
import { describeStructure } from "../../../../test-support/structure-test.js";

describeStructure("glove-client", fileURLToPath(new URL("../../src", import.meta.url)), {
  knownCircles: ["local/local-mode.ts ↔ session/create-session.ts"],
  knownTypeExits: ["types/session.ts imports state/glove-store.ts"],
});
