/**
 * Attribute names: the OpenTelemetry GenAI semantic conventions (`gen_ai.*`, `error.type`) and
 * Glove's own (`glove.*`), shared with glove-server's stored turn traces through glove-core.
 */
import { TRACE_EVENT } from "glove-core";

export { TRACE_ATTR as ATTR, TRACE_OPERATION as OPERATION } from "glove-core";

/** Span event names. */
export const EVENT = {
  compactionStart: "glove.compaction.start",
  compactionEnd: "glove.compaction.end",
  hookInvoked: "glove.hook.invoked",
  skillInvoked: "glove.skill.invoked",
  modelRetry: TRACE_EVENT.modelRetry,
} as const;
