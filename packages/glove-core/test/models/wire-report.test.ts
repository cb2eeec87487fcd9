import { describe, expect, it } from "vitest";
import { wireReport } from "../../src/models/shared/wire-report.js";

describe("wireReport (what a request inspector may keep of a wire request)", () => {
  it("shows secret headers as [redacted] and replaces their values, bearer token included, everywhere", () => {
    const token = "sk-proj-ABCDEFGHIJKLMNOP";
    const report = wireReport(
      "openai",
      "gpt-4o",
      `https://api.example.test/v1/chat?api_key=${token}&v=1`,
      { authorization: `Bearer ${token}`, "content-type": "application/json", "x-trace": `t ${token}` },
      JSON.stringify({ messages: [{ role: "user", content: `my key is ${token}` }] }),
    );
    expect(JSON.stringify(report)).not.toContain(token);
    expect(report.headers).toEqual({
      authorization: "[redacted]",
      "content-type": "application/json",
      "x-trace": "t [redacted]",
    });
    expect(report.url).toBe("https://api.example.test/v1/chat?api_key=%5Bredacted%5D&v=1");
    expect(JSON.parse(report.body).messages[0].content).toBe("my key is [redacted]");
  });

  it("redacts a key in the query (Google's ?key=) and credentials in the URL", () => {
    const report = wireReport(
      "google",
      "gemini",
      "https://user:p4ssw0rd-long@host.test/x?key=AIzaSyKEYKEYKEY1234",
      {},
      "{}",
    );
    expect(report.url).not.toContain("AIzaSyKEYKEYKEY1234");
    expect(report.url).not.toContain("p4ssw0rd-long");
  });

  it("leaves short values alone in the body (a chance match is not a secret)", () => {
    const report = wireReport("p", "m", "http://h.test/", { "x-api-key": "abc" }, '{"x":"abc"}');
    expect(report.body).toBe('{"x":"abc"}');
    expect(report.headers["x-api-key"]).toBe("[redacted]");
  });
});
