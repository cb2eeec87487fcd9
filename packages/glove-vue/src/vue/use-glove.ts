import {
  computed,
  getCurrentInstance,
  h,
  onMounted,
  onScopeDispose,
  shallowRef,
  toValue,
  watch,
  type MaybeRefOrGetter,
  type VNodeChild,
} from "vue";
import { checkSessionConfig, GloveSessionStore, type ClientSlot, type ToolEntry } from "glove-client";
import type { ToolView } from "../types/tool.js";
import { useGloveClient, type GloveClientConfig } from "./glove-client.js";
import { ResultHost, SlotHost } from "./hosts.js";
import { buildRendererMap } from "./renderer-map.js";
import type { UseGloveConfig, UseGloveReturn } from "./use-glove-config.js";

const NO_TOOLS: ToolView[] = [];

/** The client's defaults, overridden field by field by the composable's own (undefined does not override). */
function mergeConfig(base: GloveClientConfig | undefined, own: UseGloveConfig): GloveClientConfig {
  const merged: GloveClientConfig = { ...base };
  for (const [key, value] of Object.entries(own))
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  return merged;
}

const identities = new WeakMap<object, number>();
let nextIdentity = 0;
function identity(value: object | undefined): number {
  if (!value) return 0;
  let id = identities.get(value);
  if (id === undefined) identities.set(value, (id = ++nextIdentity));
  return id;
}

/**
 * What makes a different session: another server or agent, or another local store. A different
 * conversation or session id is not: the session switches, so an app that mirrors
 * `onConversationChange` into the `conversationId` it passes never tears down a running turn.
 */
function sessionKey(config: GloveClientConfig): string {
  if (config.server !== undefined) return JSON.stringify(["server", config.server, config.agent ?? ""]);
  return JSON.stringify(["local", identity(config.store), Boolean(config.persistSession)]);
}

/**
 * The Vue side of Glove. Local mode builds a Glove in the tab (model through `endpoint` or
 * `model`); server mode (`server`) follows a glove-server conversation. The config may be an
 * object, a ref or a getter: when what it returns changes (another `conversationId`, other tools),
 * the session follows. Both modes feed glove-client's external store; its snapshot lands in a
 * shallow ref once per frame while text streams. The session opens on mount (never during setup),
 * so server rendering touches no browser API and renders the `initialSnapshot` as hydration expects.
 */
export function useGlove(config: MaybeRefOrGetter<UseGloveConfig> = {}): UseGloveReturn {
  const client = useGloveClient();
  const read = (): GloveClientConfig => mergeConfig(client?.config, toValue(config));
  const first = read();
  checkSessionConfig(first);
  const mode = first.server !== undefined ? "server" : "local";

  const chat = new GloveSessionStore(read, first.frameScheduler ? { scheduler: first.frameScheduler } : {});
  // getServerSnapshot: during SSR and hydration both sides render the initial snapshot.
  const state = shallowRef(chat.getServerSnapshot());

  let close: (() => void) | undefined;
  let unsubscribe: (() => void) | undefined;
  const open = () => {
    unsubscribe ??= chat.subscribe(() => (state.value = chat.getSnapshot()));
    close = chat.open();
    state.value = chat.getSnapshot();
  };
  const stop = () => {
    close?.();
    close = undefined;
  };

  // The same array as before when its elements are the same (inline `tools: [a, b]` in a getter).
  const stableTools = computed<readonly ToolView[]>((previous) => {
    const next = read().tools ?? NO_TOOLS;
    return previous && previous.length === next.length && previous.every((t, i) => t === next[i]) ? previous : next;
  });
  const renderers = computed(() => buildRendererMap(stableTools.value, read().renderers));

  const start = () => {
    open();
    chat.setTools(stableTools.value);
    watch(
      () => sessionKey(read()),
      () => {
        stop();
        open();
      },
    );
    const wanted = () => {
      const c = read();
      return [c.server !== undefined ? c.conversationId : c.sessionId, c.systemPrompt, c.endpoint, c.model] as const;
    };
    watch(wanted, () => chat.configChanged());
    watch(stableTools, (next) => chat.setTools(next));
  };
  // In a component: on mount (SSR never mounts). Elsewhere (a store, an effect scope): at once.
  if (getCurrentInstance()) onMounted(start);
  else start();
  onScopeDispose(() => {
    stop();
    unsubscribe?.();
  });

  const renderSlot = (slot: ClientSlot): VNodeChild =>
    h(SlotHost, {
      key: slot.id,
      slot,
      render: renderers.value.slots.get(slot.renderer),
      resolveSlot: chat.resolveSlot,
      rejectSlot: chat.rejectSlot,
    });
  const renderToolResult = (entry: ToolEntry): VNodeChild => {
    const render = renderers.value.results.get(entry.name);
    if (!render || entry.renderData === undefined || entry.status === "running") return null;
    const result = { data: entry.renderData, output: entry.output, status: entry.status, input: entry.input };
    return h(ResultHost, { key: `result:${entry.key}`, render, result, name: entry.name });
  };

  const field = <K extends keyof typeof state.value>(key: K) => computed(() => state.value[key]);
  return {
    mode,
    busy: field("busy"),
    timeline: computed(() => chat.timeline(state.value)),
    streamingText: field("streamingText"),
    slots: field("slots"),
    tasks: field("tasks"),
    inbox: field("inbox"),
    stats: field("stats"),
    isCompacting: field("isCompacting"),
    connection: field("connection"),
    error: field("error"),
    sessionId: field("conversationId"),
    messages: field("messages"),
    sendMessage: chat.sendMessage,
    abort: chat.abort,
    resolveSlot: chat.resolveSlot,
    rejectSlot: chat.rejectSlot,
    retry: chat.retry,
    regenerate: chat.regenerate,
    editMessage: chat.editMessage,
    switchBranch: chat.switchBranch,
    renderSlot,
    renderToolResult,
    newConversation: chat.newConversation,
    switchConversation: chat.switchConversation,
  };
}
