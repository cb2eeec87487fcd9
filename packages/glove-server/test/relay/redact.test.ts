import { afterEach, describe, expect, it, vi } from "vitest";
import { ProviderError } from "glove-core";
import { createRedactor, redactValue, relaySecrets } from "../../src/relay/redact.js";
import { testAuthenticate } from "./support/harness.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the relay's redaction", () => {
  const redact = createRedactor(["my-own-gateway-key", "short"]);

  it("replaces well-known key shapes, bearer tokens, key assignments and the configured values", () => {
    const cases: Array<[string, string]> = [
      ["key sk-proj-abc123DEF456 refused", "key [redacted] refused"],
      ["sk-ant-api03-xyz_XYZ-123 and sk-****abcd", "[redacted] and [redacted]"],
      ["Authorization: Bearer eyJhbGciOi.abc.def-ghi", "Authorization: Bearer [redacted]"],
      ["aws AKIAIOSFODNN7EXAMPLE / ASIAIOSFODNN7EXAMPL2", "aws [redacted] / [redacted]"],
      ['{"x-api-key": "abc123", "password":"hunter2"}', '{"x-api-key": "[redacted]", "password":"[redacted]"}'],
      ["aws_secret_access_key=wJalrXUtnFEMI/K7MDENG", "aws_secret_access_key=[redacted]"],
      ["gateway my-own-gateway-key failed", "gateway [redacted] failed"],
      // Too short to be a key: left alone rather than garbling every "short" in the log.
      ["a short note about task-list-manager", "a short note about task-list-manager"],
    ];
    for (const [input, output] of cases) expect(redact(input), input).toBe(output);
  });

  it("copies errors with their class, fields, stack and causes redacted, leaving the original alone", () => {
    const cause = new Error("socket said sk-cause1234567");
    const error = new ProviderError({
      provider: "openai",
      status: 500,
      retryable: true,
      providerMessage: "echo sk-body12345678",
      cause,
    });
    const copy = redactValue({ error, list: ["Bearer abcdefgh"] }, redact) as { error: ProviderError; list: string[] };
    expect(ProviderError.isInstance(copy.error)).toBe(true);
    expect([copy.error.status, copy.error.providerMessage, copy.error.message]).toEqual([
      500,
      "echo [redacted]",
      "openai returned HTTP 500: echo [redacted]",
    ]);
    expect(copy.error.stack).toContain("echo [redacted]");
    expect((copy.error.cause as Error).message).toBe("socket said [redacted]");
    expect(copy.list).toEqual(["Bearer [redacted]"]);
    expect(error.providerMessage).toBe("echo sk-body12345678");
  });

  it("knows the server's keys: the apiKey option, else the provider's variable, and credential-like headers", () => {
    vi.stubEnv("OPENAI_API_KEY", "env-key-0123456789");
    const base = { authenticate: testAuthenticate, models: ["m"] };
    expect(relaySecrets({ ...base, provider: "openai" })).toContain("env-key-0123456789");
    expect(relaySecrets({ ...base, provider: "openai", apiKey: "option-key-0123" })).toEqual(["option-key-0123"]);
    const headers = { "x-gateway-token": "gw-0123456789", "x-title": "My app" };
    expect(
      relaySecrets({
        ...base,
        provider: "openai",
        apiKey: "k",
        adapterOptions: { headers },
        redact: ["extra-0123456"],
      }),
    ).toEqual(["extra-0123456", "k", "gw-0123456789"]);
  });
});
