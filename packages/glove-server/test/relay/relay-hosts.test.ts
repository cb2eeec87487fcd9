/**
 * The model relay checks the Host header as the server does (the same allow-list code): a page
 * on a name its author pointed at the relay's address (DNS rebinding) gets 421 before
 * authentication, the rate limit or the model run. Sent as raw requests over a socket, since
 * fetch does not let a caller choose the Host header.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationError } from "glove-core";
import { createModelRelay } from "../../src/relay/index.js";
import { exchange, request } from "../support/raw-http.js";
import { MODELS, startRelay, testAuthenticate, TOKEN, userMessage, type RunningRelay } from "./support/harness.js";

let running: RunningRelay | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const body = JSON.stringify({ messages: [userMessage("hi")] });

/** The relay's answer to a model request carrying this Host header (and the good token). */
async function answerFor(relay: RunningRelay, host: string, headers: Record<string, string> = {}) {
  const [response] = await exchange(
    relay.server.port,
    request("POST", "/", { host, authorization: TOKEN, "content-type": "application/json", ...headers }, body),
  );
  return response!;
}

describe("createModelRelay: Host check", () => {
  it("refuses a foreign Host with 421 before anything else runs: no authentication, no rate, no model", async () => {
    running = await startRelay([{ text: "never" }], { limits: { requestsPerMinute: 1 } });
    for (const host of ["attacker.example", "attacker.example:8080", "localhost.attacker.example"]) {
      const refused = await answerFor(running, host, { origin: `http://${host}` });
      expect(refused.status, host).toBe(421);
      expect(JSON.parse(refused.body).error).toMatchObject({
        code: "GLOVE_HOST_NOT_ALLOWED",
        message: expect.stringContaining("allowedHosts"),
      });
      expect(refused.headers["x-content-type-options"]).toBe("nosniff");
    }
    // Without credentials too: 421, not 401.
    const [anonymous] = await exchange(running.server.port, request("POST", "/", { host: "attacker.example" }, body));
    expect(anonymous?.status).toBe(421);
    expect(running.built).toEqual([]);
    // The refusals spent none of the one request a minute: loopback names and addresses are served.
    const served = await answerFor(running, `127.0.0.1:${running.server.port}`);
    expect(served.status).toBe(200);
    expect(served.body).toContain("event: result");
    expect(running.built).toHaveLength(1);
  });

  it('answers the names in allowedHosts (and any with ["*"]), as the server does', async () => {
    running = await startRelay([{ text: "one" }, { text: "two" }, { text: "three" }], {
      allowedHosts: ["relay.example.com", "*.corp.example"],
    });
    for (const host of ["relay.example.com", "RELAY.example.com:443", "api.corp.example", "localhost:3000", "[::1]"])
      expect((await answerFor(running, host)).status, host).not.toBe(421);
    for (const host of ["example.com", "corp.example", "relay.example.com.attacker.example"])
      expect((await answerFor(running, host)).status, host).toBe(421);
    await running.close();
    running = await startRelay([{ text: "any" }], { allowedHosts: ["*"] });
    expect((await answerFor(running, "anything.example")).status).toBe(200);
  });

  it("refuses allowedHosts entries that are not host names when the relay is created", () => {
    for (const entry of ["https://relay.example.com", "relay.example.com:8080", "relay.example.com/path", ""]) {
      expect(
        () =>
          createModelRelay({
            authenticate: testAuthenticate,
            models: MODELS,
            provider: "openai",
            apiKey: "k",
            allowedHosts: [entry],
          }),
        entry,
      ).toThrow(ConfigurationError);
    }
    expect(() =>
      createModelRelay({
        authenticate: testAuthenticate,
        models: MODELS,
        provider: "openai",
        apiKey: "k",
        allowedHosts: ["x:1"],
      }),
    ).toThrow(/createModelRelay\(\): allowedHosts entry "x:1" is not a host name/);
  });
});
