// close-handover.test.ts on the scale mode as one engine (owner-host.ts, decision 0057): the instances it
// starts inherit this variable (their fixture picks the engine from it).
process.env.GLOVE_SCALE_ENGINE = "owner";
await import("./close-handover.test.js");
