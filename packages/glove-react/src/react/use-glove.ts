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
import type { LocalSession } from "../local/local-session.js";
import { GloveStore } from "../state/glove-store.js";
import { initialState } from "../state/initial-state.js";
import type { BranchActionResult, GloveSession, ImageInput, SlotAnswerResult } from "../types/session.js";
import type { ClientSlot } from "../types/state.js";
import type { TimelineEntry, ToolEntry } from "../types/timeline.js";
import type { ToolView } from "../types/tool.js";
import { toErrorInfo } from "../util/error-info.js";
import { checkConfig, createSession, loadLocalMode } from "./create-session.js";
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
  checkConfig(merged);
  const mode = merged.server !== undefined ? "server" : "local";
  const key = sessionKey(merged);

  const [store] = useState(
    () =>
      new GloveStore(initialState(merged.initialSnapshot ?? null, merged.conversationId ?? merged.sessionId ?? null), {
        ...(merged.frameScheduler ? { scheduler: merged.frameScheduler } : {}),
      }),
  );
  const latest = useRef(merged);
  useEffect(() => {
    latest.current = merged;
  });

  const sessionRef = useRef<GloveSession | null>(null);
  /** Calls made before the session exists (a child's mount effect runs before ours). */
  const early = useRef<Array<(session: GloveSession) => void>>([]);
  useEffect(() => {
    let live = true;
    let session: GloveSession | undefined;
    const attach = (made: GloveSession) => {
      // Unmounted (or another key) while local mode's code loaded: this one never started, holds nothing.
      if (!live) return;
      session = made;
      sessionRef.current = made;
      made.start();
      for (const call of early.current.splice(0)) call(made);
    };
    const made = createSession(() => latest.current, store);
    if (made instanceof Promise)
      void made.then(attach, (error: unknown) => live && store.dispatch({ type: "error", error: toErrorInfo(error) }));
    else attach(made);
    return () => {
      live = false;
      session?.dispose();
      if (sessionRef.current === session) sessionRef.current = null;
    };
  }, [key, store]);

  // Another conversation asked for: switch to it, unless the session is already there (it created it).
  const wantedId = merged.server !== undefined ? merged.conversationId : merged.sessionId;
  const lastWanted = useRef(wantedId);
  useEffect(() => {
    const session = sessionRef.current;
    const previous = lastWanted.current;
    lastWanted.current = wantedId;
    if (!session || wantedId === previous || wantedId === session.conversationId) return;
    if (wantedId) session.switchConversation(wantedId);
    else session.newConversation();
  }, [wantedId]);

  const tools = useShallowStable(merged.tools ?? NO_TOOLS);
  useEffect(() => {
    sessionRef.current?.setTools(tools);
  }, [tools]);
  // A new prompt or model reaches the running local session; the session was built with the first.
  const { systemPrompt, endpoint, model } = merged;
  const built = useRef({ systemPrompt, endpoint, model });
  useEffect(() => {
    const session = sessionRef.current;
    if (session?.mode !== "local") return;
    const local = session as LocalSession;
    if (systemPrompt !== built.current.systemPrompt && systemPrompt !== undefined) local.update({ systemPrompt });
    if ((endpoint !== built.current.endpoint || model !== built.current.model) && (endpoint || model)) {
      // Already loaded: the session exists, so local mode's code is there.
      void loadLocalMode().then(({ modelFor }) =>
        local.update({ model: modelFor(latest.current, () => latest.current) }),
      );
    }
    built.current = { systemPrompt, endpoint, model };
  }, [systemPrompt, endpoint, model]);

  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);

  const withSession = useCallback(<T>(call: (session: GloveSession) => T, early_: () => T): T => {
    const session = sessionRef.current;
    if (session) return call(session);
    early.current.push(call);
    return early_();
  }, []);
  const sendMessage = useCallback(
    (text: string, images?: ImageInput[]) =>
      withSession(
        (s) => s.sendMessage(text, images),
        () => "",
      ),
    [withSession],
  );
  const abort = useCallback(
    () =>
      withSession(
        (s) => s.abort(),
        () => Promise.resolve(),
      ),
    [withSession],
  );
  const unopened = (): Promise<SlotAnswerResult> =>
    Promise.resolve({ ok: false, reason: "unknown_slot", message: "The session is not open yet." });
  const resolveSlot = useCallback(
    (slotId: string, value?: unknown) => sessionRef.current?.resolveSlot(slotId, value) ?? unopened(),
    [],
  );
  const rejectSlot = useCallback(
    (slotId: string, reason?: string) => sessionRef.current?.rejectSlot(slotId, reason) ?? unopened(),
    [],
  );
  const notOpen = (): Promise<BranchActionResult> =>
    Promise.resolve({ ok: false, reason: "refused", message: "The session is not open yet." });
  const regenerate = useCallback(() => sessionRef.current?.regenerate() ?? notOpen(), []);
  const editMessage = useCallback(
    (messageId: string, text: string) => sessionRef.current?.editMessage(messageId, text) ?? notOpen(),
    [],
  );
  const switchBranch = useCallback((messageId: string) => sessionRef.current?.switchBranch(messageId) ?? notOpen(), []);
  const retry = useCallback(
    (clientMessageId: string) =>
      withSession(
        (s) => s.retry(clientMessageId),
        () => undefined,
      ),
    [withSession],
  );
  const newConversation = useCallback(
    () =>
      withSession(
        (s) => s.newConversation(),
        () => undefined,
      ),
    [withSession],
  );
  const switchConversation = useCallback(
    (id: string) =>
      withSession(
        (s) => s.switchConversation(id),
        () => undefined,
      ),
    [withSession],
  );

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

  const rawTimeline = store.timeline(state);
  const timeline = useMemo(
    () =>
      rawTimeline.map((entry): TimelineEntry =>
        entry.kind === "user" && entry.status === "failed" && entry.clientMessageId
          ? { ...entry, retry: () => retry(entry.clientMessageId!) }
          : entry,
      ),
    [rawTimeline, retry],
  );

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
