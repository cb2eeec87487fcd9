import { describeRouting } from "./support/routing-cases.js";

describeRouting("bullmq");
