/** The app frame's CSP and document, built from metadata a server controls. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appCsp, appDocument } from "../../src/mcp-apps/app-csp.js";

const DIRECTIVES = [
  "default-src",
  "script-src",
  "style-src",
  "img-src",
  "font-src",
  "media-src",
  "connect-src",
  "frame-src",
  "base-uri",
  "object-src",
  "form-action",
];
const KEYWORDS = new Set(["'none'", "'unsafe-inline'", "data:", "blob:"]);

const hostile = fc.oneof(
  fc.string(),
  fc.constantFrom(
    "'unsafe-eval'",
    "https://a.example; script-src *",
    "*",
    "https:",
    "https://a.example 'unsafe-eval'",
    "javascript:alert(1)",
    "'self'",
  ),
  fc.constantFrom("https://cdn.example.com", "wss://live.example.com:8443", "https://*.example.org"),
);
const lists = fc.record(
  {
    connectDomains: fc.array(hostile),
    resourceDomains: fc.array(hostile),
    frameDomains: fc.array(hostile),
    baseUriDomains: fc.array(hostile),
  },
  { requiredKeys: [] },
);

describe("appCsp", () => {
  it("has every directive exactly once, and only keywords or well-formed origins as sources, whatever the metadata", () => {
    fc.assert(
      fc.property(lists, (csp) => {
        const policy = appCsp(csp);
        const directives = policy.split("; ").map((d) => d.split(" "));
        expect(directives.map((d) => d[0])).toEqual(DIRECTIVES);
        for (const [, ...sources] of directives) {
          expect(sources.length).toBeGreaterThan(0);
          for (const source of sources)
            expect(
              KEYWORDS.has(source) || /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i.test(source),
            ).toBe(true);
        }
      }),
    );
  });

  it("opens nothing by default: no network, no frames, no 'self'", () => {
    const policy = appCsp(undefined);
    expect(policy).toContain("connect-src 'none'");
    expect(policy).toContain("frame-src 'none'");
    expect(policy).not.toContain("'self'");
  });

  it("opens each directive to exactly the declared origins", () => {
    const policy = appCsp({
      connectDomains: ["https://api.example.com"],
      resourceDomains: ["https://cdn.example.com"],
    });
    expect(policy).toContain("connect-src https://api.example.com;");
    expect(policy).toContain("script-src 'unsafe-inline' https://cdn.example.com;");
    expect(policy).toContain("frame-src 'none'");
  });
});

describe("appDocument", () => {
  it("puts the policy before anything of the app's, once, in standards mode", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom("", "<!doctype html>", "<!-- c --><!DOCTYPE html>", "\uFEFF <!DOCTYPE HTML>"),
        (body, doctype) => {
          const doc = appDocument(`${doctype}${body}`, "default-src 'none'");
          expect(
            doc.startsWith(`<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src 'none'">`),
          ).toBe(true);
          expect(doc.endsWith(body)).toBe(true);
        },
      ),
    );
  });

  it("escapes the policy into its attribute", () => {
    expect(appDocument("<p>x</p>", `a"><script>`)).toContain(`content="a&quot;>&lt;script>"`);
  });
});
