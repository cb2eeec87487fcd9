import { describe, expect, it } from "vitest";
import { OAuthClientMetadataSchema } from "@modelcontextprotocol/sdk/shared/auth.js";
import { buildClientMetadata } from "../src/oauth/index.js";

describe("buildClientMetadata", () => {
  it("describes a public loopback PKCE client", () => {
    const metadata = buildClientMetadata({ port: 8123, scope: "read" });
    expect(OAuthClientMetadataSchema.parse(metadata)).toBeTruthy();
    expect(metadata.redirect_uris).toEqual(["http://127.0.0.1:8123/callback"]);
    expect(metadata.token_endpoint_auth_method).toBe("none");
    expect(metadata.scope).toBe("read");
  });
});
