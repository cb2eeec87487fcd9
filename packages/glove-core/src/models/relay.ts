/**
 * Public entry `glove-core/models/relay`: a model reached through a Glove model
 * relay (glove-server's `createModelRelay`), for agents that run in a browser and
 * must never hold a provider API key.
 */
export * from "./relay/index.js";
