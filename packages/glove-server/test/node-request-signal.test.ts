/**
 * listenNode hands handlers a web Request whose `signal` is the connection's: it aborts when the
 * client goes away mid-response, and only then.
 */
import http from "node:http";
import { describe, expect, it } from "vitest";
import { httpText, serveNode } from "./support/serve-node.js";
import { eventually } from "./support/polling.js";

const serve = serveNode;

function post(port: number, body: string): Promise<string> {
  return httpText(
    {
      host: "127.0.0.1",
      port,
      path: "/echo?x=1",
      method: "POST",
      headers: { "content-type": "text/plain", "x-custom": "yes" },
    },
    body,
  );
}

describe("listenNode: the Request handlers get", () => {
  it("is a Request with the method, URL, headers and body the client sent; its signal stays quiet after a whole exchange", async () => {
    const seen: Request[] = [];
    const { port } = await serve(async (request) => {
      seen.push(request);
      return new Response(
        `${request.method} ${new URL(request.url).pathname} ${request.headers.get("x-custom")} ${await request.text()}`,
      );
    });
    expect(await post(port, "hello")).toBe("POST /echo yes hello");
    const [request] = seen;
    expect(request).toBeInstanceOf(Request);
    expect(request!.url).toBe(`http://127.0.0.1:${port}/echo?x=1`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(request!.signal.aborted).toBe(false);
  });

  it("aborts request.signal when the client goes away before the response ends", async () => {
    const seen: Request[] = [];
    const aborted: unknown[] = [];
    const { port } = await serve(async (request) => {
      seen.push(request);
      request.signal.addEventListener("abort", () => aborted.push(request.signal.reason));
      // A body that never ends: only the client's leaving ends this exchange.
      return new Response(
        new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode("first")) }),
      );
    });
    const client = http.get({ host: "127.0.0.1", port, path: "/stream" });
    await new Promise<void>((resolve) => client.on("response", (res) => res.once("data", () => resolve())));
    expect(seen[0]!.signal.aborted).toBe(false);
    client.destroy();
    expect(await eventually(() => seen[0]!.signal.aborted)).toBe(true);
    expect(aborted).toHaveLength(1);
  });
});
