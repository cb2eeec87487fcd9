import { ConfigurationError } from "../../errors.js";
import type { AwsCredentials, AwsCredentialsProvider } from "../shared/aws.js";
import { awsEnvCredentials, readEnv } from "../shared/env.js";
import type { BedrockAdapterOptions } from "./options.js";

/** How requests are authorised: SigV4 with credentials, or a Bedrock API key as bearer token. */
export type BedrockAuth =
  | { credentials: AwsCredentials | AwsCredentialsProvider; bearerToken: undefined }
  | { credentials: undefined; bearerToken: string };

/** The credentials for one request: a provider is asked each time (it caches and refreshes itself). */
export async function resolveCredentials(
  credentials: AwsCredentials | AwsCredentialsProvider,
): Promise<AwsCredentials> {
  if (typeof credentials !== "function") return credentials;
  const resolved = await credentials();
  if (!resolved?.accessKeyId || !resolved.secretAccessKey) {
    throw new ConfigurationError("The Bedrock credentials provider returned no accessKeyId/secretAccessKey.");
  }
  return resolved;
}

/**
 * Credentials from the options, else from the environment unless a bearer
 * token was given; a bearer token only when there are no credentials.
 */
export function bedrockAuth(options: BedrockAdapterOptions): BedrockAuth {
  const credentials = options.credentials ?? (options.bearerToken ? undefined : awsEnvCredentials());
  if (credentials) return { credentials, bearerToken: undefined };
  const bearerToken = options.bearerToken ?? readEnv("AWS_BEARER_TOKEN_BEDROCK");
  if (!bearerToken) {
    throw new ConfigurationError(
      "BedrockAdapter needs AWS credentials: AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN), AWS_BEARER_TOKEN_BEDROCK, or the credentials option.",
    );
  }
  return { credentials: undefined, bearerToken };
}
