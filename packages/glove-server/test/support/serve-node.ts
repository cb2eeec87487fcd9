import http from "node:http";
import { afterEach } from "vitest";
import { listenNode, type Listening } from "glove-server";

const steps: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of steps.splice(0).reverse()) await step();
});

/** Runs `step` after the current test (last registered first). */
export function afterThisTest(step: () => Promise<void> | void): void {
  steps.push(step);
}

/** `listenNode(handler)` on a free port, closed after the current test. */
export async function serveNode(handler: (request: Request) => Promise<Response>): Promise<Listening> {
  const listening = await listenNode(handler);
  afterThisTest(() => listening.close(0));
  return listening;
}

/** One node:http request; resolves with the answer's body as text. */
export function httpText(options: http.RequestOptions, body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(options, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve(text));
    });
    req.on("error", reject);
    req.end(body);
  });
}
