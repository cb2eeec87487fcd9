/**
 * The frame's size from the app's `ui/notifications/size-changed`: clamped to the page's maximum,
 * and a height of 0 is not applied — a zero-area frame is not rendered (no animation frames), so an
 * app that first measured itself empty could never report its real height again.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { McpAppHostBridge } from "../../src/mcp-apps/host-bridge.js";
import type { McpAppSlotProps } from "../../src/mcp-apps/types.js";

const app: McpAppSlotProps = {
  server: { id: "basic", name: "Basic" },
  tool: { name: "get-time", bridgedName: "basic__get-time", inputSchema: { type: "object" } },
  resource: { uri: "ui://get-time/app.html", mimeType: "text/html;profile=mcp-app", html: "<p>time</p>" },
  toolInput: {},
  toolResult: { content: [] },
};

const appWindow = { postMessage: () => undefined };
const frame = { contentWindow: appWindow, clientWidth: 600 } as unknown as HTMLIFrameElement;
const page = new EventTarget();
(globalThis as { window?: unknown }).window = page;
let bridge: McpAppHostBridge | undefined;
afterEach(() => bridge?.stop());

function sizeChanged(height: unknown): void {
  const event = Object.assign(new Event("message"), {
    source: appWindow,
    origin: "null",
    data: { jsonrpc: "2.0", method: "ui/notifications/size-changed", params: { width: 600, height } },
  });
  page.dispatchEvent(event);
}

function listen(maxHeight?: number): number[] {
  const heights: number[] = [];
  bridge = new McpAppHostBridge(frame, app, maxHeight === undefined ? {} : { maxHeight }, ({ height }) =>
    heights.push(height!),
  );
  bridge.start();
  return heights;
}

describe("McpAppHostBridge: the app's size", () => {
  it("a first report of 0 (measured before the app rendered) leaves the frame as it is; the real height that follows is applied", () => {
    const heights = listen();
    sizeChanged(0);
    sizeChanged(248.4);
    expect(heights).toEqual([249]);
  });

  it("any reported height: applied rounded up and clamped to the maximum when positive, ignored otherwise (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.double(), fc.integer({ min: -10, max: 5000 }), fc.constant(0), fc.string()),
        fc.option(fc.integer({ min: 1, max: 3000 }), { nil: undefined }),
        (height, maxHeight) => {
          const heights = listen(maxHeight);
          sizeChanged(height);
          bridge!.stop();
          const applies = typeof height === "number" && Number.isFinite(height) && Math.ceil(height) > 0;
          expect(heights).toEqual(applies ? [Math.min(Math.ceil(height), maxHeight ?? 1200)] : []);
        },
      ),
    );
  });
});
