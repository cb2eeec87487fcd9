import { ConfigurationError } from "../../errors.js";
import { readEnv } from "../shared/env.js";
import { PROVIDERS, type ProviderConfig, type ProviderId } from "./table.js";

/** A provider's config plus whether it can be used with the current environment. */
export type AvailableProvider = ProviderConfig & { available: boolean };

function isProviderId(id: string): id is ProviderId {
  return Object.hasOwn(PROVIDERS, id);
}

/** The provider's config; throws ConfigurationError naming the known ids. */
export function getProvider(id: string): Readonly<ProviderConfig> {
  if (!isProviderId(id)) {
    throw new ConfigurationError(
      `Unknown model provider "${id}". Known providers: ${Object.keys(PROVIDERS).join(", ")}.`,
    );
  }
  return PROVIDERS[id];
}

/**
 * Every provider with `available` telling whether it can be used as configured
 * now: its key's environment variable is set (bedrock: both AWS key variables
 * or AWS_BEARER_TOKEN_BEDROCK); local providers need no key and are always listed
 * as available (whether the server runs is only known on the first request).
 */
export function getAvailableProviders(): AvailableProvider[] {
  return Object.values(PROVIDERS).map((p) => ({ ...p, models: [...p.models], available: hasCredentials(p) }));
}

function hasCredentials(p: ProviderConfig): boolean {
  if (!p.requiresApiKey || !p.envVar) return true;
  if (p.id === "bedrock") {
    return Boolean(
      (readEnv("AWS_ACCESS_KEY_ID") && readEnv("AWS_SECRET_ACCESS_KEY")) || readEnv("AWS_BEARER_TOKEN_BEDROCK"),
    );
  }
  return readEnv(p.envVar) !== undefined;
}
