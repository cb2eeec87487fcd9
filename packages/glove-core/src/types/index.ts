export type * from "./message.js";
export type * from "./events.js";
export type * from "./store.js";
export type * from "./display.js";
export type * from "./tool.js";
export type * from "./model.js";
export type * from "./glove.js";
export type * from "./plugin.js";
