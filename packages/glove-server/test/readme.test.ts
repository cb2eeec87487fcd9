import { fileURLToPath } from "node:url";
import { describeReadmeExamples } from "../../../test-support/readme-examples.js";

describeReadmeExamples({
  title: "glove-server README examples",
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  atLeast: 7, // includes the one-origin listenNode example
});
