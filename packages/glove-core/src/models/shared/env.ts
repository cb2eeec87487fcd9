import type { AwsCredentials } from "./aws.js";

/** Reads an environment variable where there is one (Node, Deno, Bun); undefined in browsers. */
export function readEnv(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const value = proc?.env?.[name];
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** The AWS region: the one given, else AWS_REGION, AWS_DEFAULT_REGION, then us-east-1. */
export function awsRegion(region: string | undefined): string {
  return region ?? readEnv("AWS_REGION") ?? readEnv("AWS_DEFAULT_REGION") ?? "us-east-1";
}

/**
 * AWS credentials from the environment (AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN)
 * with `accessKeyId` (default AWS_ACCESS_KEY_ID); undefined unless both keys are set.
 */
export function awsEnvCredentials(accessKeyId = readEnv("AWS_ACCESS_KEY_ID")): AwsCredentials | undefined {
  const secretAccessKey = readEnv("AWS_SECRET_ACCESS_KEY");
  if (!accessKeyId || !secretAccessKey) return undefined;
  const sessionToken = readEnv("AWS_SESSION_TOKEN");
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}
