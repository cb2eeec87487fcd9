export { ScriptedModel, estimateTokens } from "./scripted-model.js";
export type { ScriptedModelOptions, ScriptedStep, ScriptedTurn } from "./scripted-model.js";
export { RecordingSubscriber } from "./recording-subscriber.js";
export { storeConformanceCases, conformanceMessages, StoreConformanceError } from "./store-conformance.js";
export type { StoreCapability, StoreConformanceCase, StoreConformanceOptions } from "./store-conformance.js";
