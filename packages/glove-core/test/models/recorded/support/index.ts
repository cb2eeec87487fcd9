/** Replay infrastructure for recorded provider traffic (see ../README.md). */
export * from "./any-cut.js";
export * from "./chunking.js";
export * from "./fixtures.js";
export * from "./recorded-response.js";
export * from "./replay-script.js";
export * from "./replay-lifecycle.js";
export * from "./replay-server.js";
