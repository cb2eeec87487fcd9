import { describeKills } from "./support/kill-cases.js";

describeKills("bullmq");
