import { fileURLToPath } from "node:url";
import { describeStructure } from "../../../test-support/structure-test.js";

// The whole bench workspace, not only the server bench: its folders import each other's helpers.
describeStructure("bench", fileURLToPath(new URL("../..", import.meta.url)), {
  knownCircles: [],
});
