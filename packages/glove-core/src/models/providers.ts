/**
 * `glove-core/models/providers`: the provider table and `createAdapter`.
 * Adapters are loaded lazily (dynamic import on the first prompt), so importing
 * this module pulls in no adapter code and no Node module.
 */
export * from "./providers/index.js";
