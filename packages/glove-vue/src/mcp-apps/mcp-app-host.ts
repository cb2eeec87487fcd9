import {
  defineComponent,
  inject,
  provide,
  toValue,
  type InjectionKey,
  type MaybeRefOrGetter,
  type PropType,
} from "vue";
import type { McpAppHostOptions } from "glove-client/mcp-apps";

const MCP_APP_HOST: InjectionKey<() => McpAppHostOptions> = Symbol("glove-mcp-app-host");

/**
 * What the MCP Apps below may do (tool calls, messages) and how they look (theme, styles): read by
 * the default `mcp_app` renderer, so providing it above `<GloveRender>` is enough. A ref or getter
 * keeps it live: a change updates the running apps (`host-context-changed`) without reloading them.
 */
export function provideMcpAppHost(options: MaybeRefOrGetter<McpAppHostOptions>): void {
  provide(MCP_APP_HOST, () => toValue(options));
}

/** The options provided above (none outside a `provideMcpAppHost` / `<McpAppHost>`), read when called. */
export function useMcpAppHost(): () => McpAppHostOptions {
  return inject(MCP_APP_HOST, () => ({}));
}

/** `provideMcpAppHost` as a component: `h(McpAppHost, { options }, () => h(GloveRender, { glove }))`. */
export const McpAppHost = defineComponent({
  name: "GloveMcpAppHost",
  props: { options: { type: Object as PropType<McpAppHostOptions>, required: true } },
  setup(props, { slots }) {
    provideMcpAppHost(() => props.options);
    return () => slots.default?.();
  },
});
