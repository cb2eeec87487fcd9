import {
  createElement,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from "react";
import { checkSessionConfig, GloveSessionStore, type ClientSlot, type ToolEntry } from "glove-client";
import type { ToolView } from "../types/tool.js";
import type { GloveClientConfig } from "./glove-client.js";
import { useGloveClient } from "./glove-provider.js";
import { ResultHost, SlotHost } from "./hosts.js";
import { buildRendererMap } from "./renderer-map.js";
import type { UseGloveConfig, UseGloveReturn } from "./use-glove-config.js";

const NO_TOOLS: ToolView[] = [];

/** The client's defaults, overridden field by field by the hook's own (undefined does not override). */
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
 * conversation or session id is not: the session switches (see below), so an app that mirrors
 * `onConversationChange` into the `conversationId` it passes never tears down a running turn.
 */
function sessionKey(config: GloveClientConfig): string {
  if (config.server !== undefined) return JSON.stringify(["server", config.server, config.agent ?? ""]);
  return JSON.stringify(["local", identity(config.store), Boolean(config.persistSession)]);
}

/** The same array as last render when its elements are the same (inline `tools={[a, b]}` arrays). */
function useShallowStable<T>(items: readonly T[]): readonly T[] {
  const ref = useRef(items);
  const previous = ref.current;
  const same = previous.length === items.length && previous.every((item, i) => item === items[i]);
  useEffect(() => {
    if (!same) ref.current = items;
  });
  return same ? previous : items;
}

/**
 * The React side of Glove. Local mode builds a Glove in the tab (model through `endpoint` or
 * `model`); server mode (`server`) follows a glove-server conversation. Both feed one external
 * store, read with useSyncExternalStore; streaming text reaches React once per frame. Sessions are
 * created in effects (never during render), so server rendering touches no browser API.
 */
export function useGlove(config: UseGloveConfig = {}): UseGloveReturn {
  const client = useGloveClient();
  const merged = mergeConfig(client?.config, config);
  checkSessionConfig(merged);
  const mode = merged.server !== undefined ? "server" : "local";
  const key = sessionKey(merged);

  const latest = useRef(merged);
  useEffect(() => {
    latest.current = merged;
  });
  // glove-client holds the session, its state and the actions; this hook renders them.
  const [chat] = useState(
    () =>
      new GloveSessionStore(() => latest.current, merged.frameScheduler ? { scheduler: merged.frameScheduler } : {}),
  );
  useEffect(() => chat.open(), [key, chat]);

  // Another conversation asked for, or a new prompt or model for the running local session.
  const wantedId = merged.server !== undefined ? merged.conversationId : merged.sessionId;
  const { systemPrompt, endpoint, model } = merged;
  useEffect(() => {
    chat.configChanged();
  }, [chat, wantedId, systemPrompt, endpoint, model]);

  const tools = useShallowStable(merged.tools ?? NO_TOOLS);
  useEffect(() => {
    chat.setTools(tools);
  }, [chat, tools]);

  const state = useSyncExternalStore(chat.subscribe, chat.getSnapshot, chat.getServerSnapshot);
  const { sendMessage, abort, resolveSlot, rejectSlot, retry, regenerate, editMessage, switchBranch } = chat;
  const { newConversation, switchConversation } = chat;

  const renderers = useMemo(() => buildRendererMap(tools, merged.renderers), [tools, merged.renderers]);
  const renderSlot = useCallback(
    (slot: ClientSlot): ReactNode =>
      createElement(SlotHost, {
        key: slot.id,
        slot,
        render: renderers.slots.get(slot.renderer),
        resolveSlot,
        rejectSlot,
      }),
    [renderers, resolveSlot, rejectSlot],
  );
  const renderToolResult = useCallback(
    (entry: ToolEntry): ReactNode => {
      const render = renderers.results.get(entry.name);
      if (!render || entry.renderData === undefined || entry.status === "running") return null;
      const props = { data: entry.renderData, output: entry.output, status: entry.status, input: entry.input };
      return createElement(ResultHost, { key: entry.key, render, props, name: entry.name });
    },
    [renderers],
  );

  const timeline = chat.timeline(state);

  return useMemo(
    () => ({
      mode,
      busy: state.busy,
      timeline,
      streamingText: state.streamingText,
      slots: state.slots,
      tasks: state.tasks,
      inbox: state.inbox,
      stats: state.stats,
      isCompacting: state.isCompacting,
      connection: state.connection,
      error: state.error,
      sessionId: state.conversationId,
      messages: state.messages,
      sendMessage,
      abort,
      resolveSlot,
      rejectSlot,
      retry,
      regenerate,
      editMessage,
      switchBranch,
      renderSlot,
      renderToolResult,
      newConversation,
      switchConversation,
    }),
    [
      mode,
      state,
      timeline,
      sendMessage,
      abort,
      resolveSlot,
      rejectSlot,
      retry,
      regenerate,
      editMessage,
      switchBranch,
      renderSlot,
      renderToolResult,
      newConversation,
      switchConversation,
    ],
  );
}
