export {
  GloveTracing,
  gloveTracing,
  traceGlove,
  classifyToolByName,
  GLOVE_OTEL_PLUGIN_NAME,
  GLOVE_OTEL_VERSION,
} from "./tracing.js";
export type { GloveTracingOptions, ToolClassifier } from "./tracing.js";
export { ATTR, EVENT, OPERATION } from "./attributes.js";
