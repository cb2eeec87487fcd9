export { gloveClientFeatures, type GloveClientFeatures } from "./features.js";
export { answerElicitation, MCP_ELICITATION_RENDERER } from "./elicitation.js";
export { answerUrlElicitation, MCP_URL_ELICITATION_RENDERER } from "./url-elicitation.js";
export { elicitationAnswerSchema, elicitationContentSchema } from "./elicitation-schema.js";
export { answerSampling, samplingPermissionName, SAMPLING_REJECTED_CODE } from "./sampling.js";
export type {
  McpClientFeatureOptions,
  McpClientFeatures,
  McpElicitationAnswer,
  McpElicitationInput,
  McpElicitationOptions,
  McpFeatureHost,
  McpRoot,
  McpSamplingOptions,
  McpSamplingRequest,
  McpUrlElicitationAnswer,
  McpUrlElicitationInput,
} from "./types.js";
export { McpPromptError, parsePromptArguments, promptContent, promptSkill, promptSkillName } from "./prompt-skills.js";
export { resourceText, resourceTools } from "./resource-tools.js";
