import { fileURLToPath } from "node:url";
import { describeStructure } from "../../../../test-support/structure-test.js";

describeStructure("glove-mcp", fileURLToPath(new URL("../../src", import.meta.url)), {
  knownCircles: ["apps/tool-ui.ts ↔ client-features/types.ts ↔ connect.ts ↔ server-spec.ts ↔ types.ts"],
});
