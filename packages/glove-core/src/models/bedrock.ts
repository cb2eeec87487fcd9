/** Public entry `glove-core/models/bedrock`: the Amazon Bedrock Converse adapter. */
export * from "./bedrock/index.js";
