import { fileURLToPath } from "node:url";
import { describeStructure } from "../../../../test-support/structure-test.js";

describeStructure("glove-server", fileURLToPath(new URL("../../src", import.meta.url)), {
  knownCircles: [
    "conversations/inbox-wake.ts ↔ conversations/live-conversation.ts ↔ conversations/turn-runner.ts",
    "options.ts ↔ scale/server-scale.ts",
  ],
});
