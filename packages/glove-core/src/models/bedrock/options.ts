import type { AnthropicThinking } from "../anthropic/options.js";
import type { HttpAdapterOptions } from "../shared/adapter-options.js";
import type { AwsCredentials, AwsCredentialsProvider } from "../shared/aws.js";

/** Options of BedrockAdapter: region, credentials, whether to stream, and reasoning. */
export interface BedrockAdapterOptions extends HttpAdapterOptions {
  /** Default AWS_REGION, AWS_DEFAULT_REGION, then us-east-1. */
  region?: string;
  /**
   * Static credentials, or a provider called per request (pass the AWS SDK's
   * `fromNodeProviderChain()` for profiles, SSO and instance roles). Default from
   * the environment: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN.
   */
  credentials?: AwsCredentials | AwsCredentialsProvider | undefined;
  /** A Bedrock API key (AWS_BEARER_TOKEN_BEDROCK), used instead of SigV4 when no credentials are set. */
  bearerToken?: string;
  /** Default https://bedrock-runtime.{region}.amazonaws.com. */
  baseURL?: string;
  /** ConverseStream (default true) or Converse. */
  stream?: boolean;
  /**
   * Extended thinking of Claude models, sent as `additionalModelRequestFields.thinking`. Reasoning
   * comes back signed in `Message.reasoning_blocks` and is returned on the next turn.
   */
  thinking?: AnthropicThinking;
  /** Claude's interleaved thinking (adds `anthropic_beta: ["interleaved-thinking-2025-05-14"]`). */
  interleavedThinking?: boolean;
  /** Model-specific request fields, merged into `additionalModelRequestFields`. */
  additionalModelRequestFields?: Record<string, unknown>;
}
