import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearerFetch } from "../src/bearer-fetch.js";

// A live connection's fetch asks the app for its token again when the server refuses the one it
// sent (401, or 403 insufficient_scope) and repeats the request once with a newer one.
let server: http.Server;
let url: string;
const seen: Array<string | undefined> = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const auth = req.headers.authorization;
    seen.push(auth);
    if (auth === "Bearer narrow") {
      res.writeHead(403, { "www-authenticate": 'Bearer error="insufficient_scope", scope="admin"' }).end();
    } else if (auth === "Bearer forbidden") {
      res.writeHead(403).end("no"); // a refusal no other token answers
    } else if (auth === "Bearer expired") {
      res.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"' }).end();
    } else {
      res.writeHead(200).end("ok");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function statuses(first: string, current: string): Promise<{ status: number; sent: Array<string | undefined> }> {
  const from = seen.length;
  const response = await bearerFetch(first, async () => current)(url, { method: "POST" });
  await response.body?.cancel();
  return { status: response.status, sent: seen.slice(from) };
}

describe("bearerFetch on a refused token", () => {
  it("repeats a 403 insufficient_scope with the token the app got since (a step-up)", async () => {
    expect(await statuses("narrow", "wide")).toEqual({ status: 200, sent: ["Bearer narrow", "Bearer wide"] });
  });

  it("repeats a 401 with a refreshed token, as before", async () => {
    expect(await statuses("expired", "fresh")).toEqual({ status: 200, sent: ["Bearer expired", "Bearer fresh"] });
  });

  it("returns the refusal when the app has no newer token, and never repeats a plain 403", async () => {
    expect(await statuses("narrow", "narrow")).toEqual({ status: 403, sent: ["Bearer narrow"] });
    expect(await statuses("forbidden", "other")).toEqual({ status: 403, sent: ["Bearer forbidden"] });
  });
});
