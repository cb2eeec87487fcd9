export { createModelRelay, type ModelRelay } from "./create-model-relay.js";
export {
  RELAY_DEFAULT_LIMITS,
  type ModelRelayOptions,
  type RelayAdapterOptions,
  type RelayAuthenticate,
  type RelayLimits,
  type RelayPrincipal,
  type RelayProviderFactory,
} from "./relay-options.js";
export type { RelayErrorBody, RelayErrorPayload, RelayRequestBody, RelayToolSpec } from "glove-core/models/relay";
