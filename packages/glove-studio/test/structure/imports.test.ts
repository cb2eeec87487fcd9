import { fileURLToPath } from "node:url";
import { describeStructure } from "../../../../test-support/structure-test.js";

describeStructure("glove-studio (server side)", fileURLToPath(new URL("../../src", import.meta.url)), {
  knownCircles: [],
});

describeStructure("glove-studio (UI)", fileURLToPath(new URL("../../ui", import.meta.url)), {
  knownCircles: [],
});
