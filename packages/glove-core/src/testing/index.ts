export { ScriptedModel, estimateTokens } from "./scripted-model.js";
export type { ScriptedModelOptions, ScriptedStep, ScriptedTurn } from "./scripted-model.js";
export { RecordingSubscriber } from "./recording-subscriber.js";
