import { fileURLToPath } from "node:url";
import { describeStructure } from "../../../../test-support/structure-test.js";

describeStructure("glove-vue", fileURLToPath(new URL("../../src", import.meta.url)));
