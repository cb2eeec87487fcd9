import { describeKills } from "./support/kill-cases.js";

// The same chaos as scale-kill.test.ts, on the scale mode as one engine (owner-host.ts).
describeKills("owner");
