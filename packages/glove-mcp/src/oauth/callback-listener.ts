import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpOAuthError } from "./errors.js";
import type { McpOAuthCallbackParams } from "./flow.js";
import { loopbackRedirectUrl } from "./metadata.js";

/** A one-shot HTTP listener on 127.0.0.1 for the authorization server's redirect. */
export interface OAuthCallbackListener {
  /** The port actually bound (differs from the requested one when that was 0). */
  readonly port: number;
  /** `http://127.0.0.1:<port><path>`: the redirect URI to register. */
  readonly redirectUrl: string;
  /**
   * Resolves with the first callback's query — the first whose `state` is `expectedState` when
   * given: other hits (a forged or stale redirect) are answered 400 and ignored, so one of them
   * cannot cancel the login. Rejects on timeout or abort.
   */
  waitForCallback(options?: {
    timeoutMs?: number;
    signal?: AbortSignal;
    expectedState?: string;
  }): Promise<McpOAuthCallbackParams>;
  close(): Promise<void>;
}

const PAGE = (title: string, body: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><p>${body}</p>`;

/** Starts listening on 127.0.0.1 only; the callback never accepts connections from elsewhere. */
export async function startCallbackListener(port: number, callbackPath = "/callback"): Promise<OAuthCallbackListener> {
  // Callbacks that arrived, and the waiter deciding which one it takes.
  const arrived: McpOAuthCallbackParams[] = [];
  let waiter:
    | { accepts: (params: McpOAuthCallbackParams) => boolean; deliver: (params: McpOAuthCallbackParams) => void }
    | undefined;
  const expectedPath = callbackPath.startsWith("/") ? callbackPath : `/${callbackPath}`;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== expectedPath) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      return;
    }
    const q = url.searchParams;
    const params: McpOAuthCallbackParams = {
      code: q.get("code"),
      state: q.get("state"),
      error: q.get("error"),
      error_description: q.get("error_description"),
      iss: q.get("iss"),
    };
    if (waiter && !waiter.accepts(params)) {
      res
        .writeHead(400, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
        .end(
          PAGE("Not this authorization", "This link does not belong to the authorization in progress and was ignored."),
        );
      return;
    }
    const ok = Boolean(params.code) && !params.error;
    res
      .writeHead(ok ? 200 : 400, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
      .end(
        ok
          ? PAGE("Authorized", "Authorization received. You can close this window and return to the terminal.")
          : PAGE("Authorization failed", "Authorization did not complete. Return to the terminal for details."),
      );
    if (waiter) {
      waiter.deliver(params);
      waiter = undefined;
    } else {
      arrived.push(params);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) =>
      reject(
        new McpOAuthError(
          "callback",
          `Could not listen on 127.0.0.1:${port} for the OAuth callback: ${error.message}`,
          { cause: error },
        ),
      ),
    );
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;

  return {
    port: bound,
    redirectUrl: loopbackRedirectUrl(bound, callbackPath),
    waitForCallback({ timeoutMs = 300_000, signal, expectedState } = {}) {
      const accepts = (params: McpOAuthCallbackParams) => expectedState === undefined || params.state === expectedState;
      return new Promise<McpOAuthCallbackParams>((resolve, reject) => {
        const cleanup = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          waiter = undefined;
        };
        const onAbort = () => {
          cleanup();
          reject(
            new McpOAuthError("callback", "The OAuth flow was aborted before the browser came back.", {
              cause: signal?.reason,
            }),
          );
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new McpOAuthError(
              "callback",
              `No OAuth callback arrived within ${Math.round(timeoutMs / 1000)} s. Run the authorization again.`,
            ),
          );
        }, timeoutMs);
        if (signal?.aborted) return onAbort();
        signal?.addEventListener("abort", onAbort, { once: true });
        const early = arrived.find(accepts);
        if (early) {
          cleanup();
          resolve(early);
          return;
        }
        waiter = {
          accepts,
          deliver: (params) => {
            cleanup();
            resolve(params);
          },
        };
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
