import { memoryStorage } from "glove-server";
import { describeServerSuite } from "./suite/server-suite.js";

describeServerSuite("memory storage", () => memoryStorage());
