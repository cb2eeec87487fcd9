// suite.scale.test.ts on the scale mode as one engine (owner-host.ts, decision 0057): scaleMode
// (support/in-process.ts) picks the engine from this variable.
process.env.GLOVE_SCALE_ENGINE = "owner";
await import("./suite.scale.test.js");
