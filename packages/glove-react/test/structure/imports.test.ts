import { fileURLToPath } from "node:url";
import { describeStructure } from "../../../../test-support/structure-test.js";

describeStructure("glove-react", fileURLToPath(new URL("../../src", import.meta.url)));
