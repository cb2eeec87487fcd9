import { describeRouting } from "./support/routing-cases.js";

// The same cases as scale-routing.test.ts, on the scale mode as one engine (owner-host.ts).
describeRouting("owner");
