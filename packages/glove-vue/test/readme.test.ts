import { fileURLToPath } from "node:url";
import { describeReadmeExamples } from "../../../test-support/readme-examples.js";

describeReadmeExamples({
  title: "glove-vue README ts examples",
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  atLeast: 2,
});
