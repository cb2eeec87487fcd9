/**
 * Replays recorded provider responses. Two transports over one script:
 * - `startReplayServer`: a real HTTP server on 127.0.0.1; each piece is written and flushed
 *   separately (the client may still coalesce pieces that arrive together).
 * - `replayFetch`: an in-process `fetch` whose response body yields exactly the scripted pieces,
 *   for deterministic chunking and property tests (pass it as the adapter's `fetch` option).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { responseFromPieces } from "./recorded-response.js";
import {
  parseJson,
  ReplayExhaustedError,
  ReplayScript,
  type ReplayedRequest,
  type ReplayStep,
} from "./replay-script.js";

export interface ReplayServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  script: ReplayScript;
  close(): Promise<void>;
}

function flatHeaders(headers: IncomingMessage["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

/** Starts a replay server answering request n with step n. */
export async function startReplayServer(steps: ReplayStep[]): Promise<ReplayServer> {
  const script = new ReplayScript(steps);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const request: ReplayedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: flatHeaders(req.headers),
        raw,
        json: parseJson(raw),
      };
      let answer;
      try {
        answer = script.next(request);
      } catch (error) {
        res
          .writeHead(599, { "content-type": "text/plain" })
          .end(ReplayExhaustedError.isInstance(error) ? error.message : String(error));
        return;
      }
      req.socket.setNoDelay(true);
      res.writeHead(answer.response.status, answer.response.headers);
      void writePieces(res, answer.pieces);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    script,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function writePieces(res: ServerResponse, pieces: Uint8Array[]): Promise<void> {
  for (const piece of pieces) {
    if (res.destroyed) return;
    await new Promise<void>((resolve) => res.write(piece, () => resolve()));
    // Yield so each piece leaves in its own write rather than one coalesced buffer.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  res.end();
}

/** An in-process fetch answering call n with step n, its body delivered in exactly the scripted pieces. */
export function replayFetch(steps: ReplayStep[]): { fetch: typeof fetch; script: ReplayScript } {
  const script = new ReplayScript(steps);
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const raw = await request.text();
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => (headers[k] = v));
    const answer = script.next({
      method: request.method,
      path: url.pathname + url.search,
      headers,
      raw,
      json: parseJson(raw),
    });
    return responseFromPieces(answer.response, answer.pieces);
  };
  return { fetch: fetchImpl as typeof fetch, script };
}
