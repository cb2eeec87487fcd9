// scale-quotas.test.ts on the scale mode as one engine (owner-host.ts, decision 0057): scaledServer and
// scaleMode (support/in-process.ts) pick the engine from this variable.
process.env.GLOVE_SCALE_ENGINE = "owner";
await import("./scale-quotas.test.js");
