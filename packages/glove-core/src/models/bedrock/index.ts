export { ProviderError } from "../../errors.js";
export type { AwsCredentials, AwsCredentialsProvider } from "../shared/aws.js";
export { BedrockAdapter } from "./adapter.js";
export { toConverseBlock } from "./content-blocks.js";
export type { BedrockAdapterOptions } from "./options.js";
