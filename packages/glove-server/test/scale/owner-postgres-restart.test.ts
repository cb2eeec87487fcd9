// scale-postgres-restart.test on the scale mode as one engine (owner-host.ts, decision 0057).
import { onOwnerEngine } from "./support/owner-engine.js";

await onOwnerEngine(() => import("./scale-postgres-restart.test.js"));
