import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CancelledNotificationSchema,
  type CancelledNotification,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * Signals for our server-to-client request handlers that `notifications/cancelled` always reaches.
 * The SDK (1.32.2) drops a cancellation whose request id is 0 (`if (!requestId) return`), so the
 * first request a server sends in a session (often the elicitation a tool is waiting on) could
 * never be cancelled and its slot would stay up until the connection closed. The SDK's own
 * handling still runs for every other request.
 */
export function cancellableHandlers(
  client: Client,
): (requestId: RequestId, sdkSignal: AbortSignal) => { signal: AbortSignal; done(): void } {
  const controllers = new Map<RequestId, AbortController>();
  const sdk = client as unknown as { _oncancel?: (notification: CancelledNotification) => Promise<void> };
  const sdkOnCancel = typeof sdk._oncancel === "function" ? sdk._oncancel.bind(client) : undefined;
  client.setNotificationHandler(CancelledNotificationSchema, async (notification) => {
    const id = notification.params.requestId;
    if (id !== undefined) controllers.get(id)?.abort(notification.params.reason);
    await sdkOnCancel?.(notification);
  });
  return (requestId, sdkSignal) => {
    const controller = new AbortController();
    controllers.set(requestId, controller);
    return {
      signal: AbortSignal.any([sdkSignal, controller.signal]),
      done: () => controllers.delete(requestId),
    };
  };
}
