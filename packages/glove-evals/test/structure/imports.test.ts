import { fileURLToPath } from "node:url";
import { describeStructure } from "../../../../test-support/structure-test.js";

describeStructure("glove-evals", fileURLToPath(new URL("../../src", import.meta.url)), {
  knownCircles: [],
});
