// Public entry of the `glove-core/display-manager` subpath.
export { Displaymanager } from "./display-manager.js";
export { PERMISSION_REQUEST_RENDERER } from "../constants.js";
export type {
  DisplayManagerAdapter,
  ListenerFn,
  RejectFn,
  Renderer,
  ResolverFn,
  Slot,
  SlotAnswerCheck,
  SlotPush,
  DisplayStrategy,
  UnsubscribeFn,
} from "../types/index.js";
