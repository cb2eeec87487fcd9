import { defineComponent, h, onBeforeUnmount, onMounted, ref, shallowRef, watch, type PropType } from "vue";
import { appCsp, appDocument, McpAppHostBridge, maxHeightOf } from "glove-client/mcp-apps";
import type { McpAppHostOptions, McpAppSlotProps } from "glove-client/mcp-apps";

/** Before the app reports its size. */
const INITIAL_HEIGHT = 160;

/**
 * An MCP App in a sandboxed iframe: `allow-scripts` only (an opaque origin: no access to the
 * page, its cookies or storage, no top navigation, no popups), a CSP built from the resource's
 * metadata as the document's first element, and glove-client's host bridge on the frame's
 * messages. The bridge starts before the document is set, so the app's first message is heard; a
 * new `app` object with the same `appKey` (a snapshot after reconnecting) does not reload the app.
 */
export const McpAppFrame = defineComponent({
  name: "GloveMcpAppFrame",
  props: {
    app: { type: Object as PropType<McpAppSlotProps>, required: true },
    /** What keeps the app loaded (the slot id). Default: the `app` object itself. */
    appKey: { type: String, default: undefined },
    /** What the app may do and how it looks. */
    options: { type: Object as PropType<McpAppHostOptions>, default: () => ({}) },
  },
  setup(props) {
    const frame = ref<HTMLIFrameElement | null>(null);
    const bridge = shallowRef<McpAppHostBridge | undefined>(undefined);
    const height = ref(INITIAL_HEIGHT);

    const load = () => {
      bridge.value?.stop();
      const element = frame.value;
      if (!element) return;
      const host = new McpAppHostBridge(element, props.app, props.options, ({ height: next }) => {
        if (next !== undefined) height.value = next;
      });
      bridge.value = host;
      host.start();
      element.srcdoc = appDocument(props.app.resource.html, appCsp(props.app.resource.csp));
    };
    // Mounted only in a browser: server rendering draws the empty frame and touches no window.
    onMounted(load);
    watch(() => props.appKey ?? props.app, load, { flush: "post" });
    watch(
      () => props.options,
      (options) => bridge.value?.update(options),
    );
    onBeforeUnmount(() => bridge.value?.stop());

    return () => {
      const { app, options } = props;
      const bordered = app.resource.prefersBorder !== false;
      return h("iframe", {
        ref: frame,
        title: app.tool.title ?? `${app.server.name}: ${app.tool.name}`,
        sandbox: "allow-scripts",
        referrerpolicy: "no-referrer",
        "data-glove-role": "mcp-app",
        "data-mcp-app": app.resource.uri,
        style: {
          display: "block",
          width: "100%",
          height: `${Math.min(height.value, maxHeightOf(options))}px`,
          border: bordered ? "1px solid rgba(127, 127, 127, 0.35)" : "0",
          borderRadius: bordered ? "8px" : "0",
          background: "transparent",
          colorScheme: options.theme ?? "normal",
        },
      });
    };
  },
});
