/** glove-studio: look at what your agents did — standalone over a storage, or mounted in a glove-server. */
export { createStudio } from "./mount/create-studio.js";
export { startStudio, DEFAULT_PORT } from "./standalone/start-studio.js";
export { fixtureSource, fixtureParts } from "./fixture/fixture-source.js";
export type { FixtureParts } from "./fixture/fixture-source.js";
export { STUDIO_CSP } from "./http/responses.js";
export { memoryAuditLog } from "./act/audit-log.js";
export type { StudioAction, StudioAuditEntry, StudioAuditLog } from "./types/audit.js";
export type {
  ConversationDetail,
  CreateStudioOptions,
  ForkRequest,
  ForkResult,
  RunningStudio,
  StartStudioOptions,
  StudioActions,
  StudioData,
  StudioInfo,
  StudioQuestion,
} from "./types/studio.js";
