export type * from "./wire.js";
export type * from "./state.js";
export type * from "./actions.js";
export type * from "./timeline.js";
export type * from "./tool.js";
export type * from "./session.js";
