export { ProviderError } from "../../errors.js";
export { RelayModel, createRelayModel } from "./adapter.js";
export type { RelayHeaders, RelayModelOptions } from "./options.js";
export { relayRequestBody, toRelayMessage } from "./request-body.js";
export {
  RELAY_ERROR_EVENT,
  RELAY_FORWARDED_EVENTS,
  RELAY_PROVIDER,
  RELAY_RESULT_EVENT,
  type RelayErrorBody,
  type RelayErrorPayload,
  type RelayForwardedEvent,
  type RelayIssue,
  type RelayRequestBody,
  type RelayToolSpec,
} from "./protocol.js";
