import { useEffect, useRef, useState } from "react";
import type { StudioInfo } from "../api.js";
import { followEvents } from "./follow-events.js";

/** How often the standalone page reads a conversation again (it has no server to tell it). */
export const POLL_MS = 2000;

/** Events after which what the page shows is stale (text deltas are shown as they come instead). */
const CHANGES = new Set([
  "turn_start",
  "turn_end",
  "turn_resumed",
  "messages_appended",
  "branches_changed",
  "model_response_complete",
  "tool_use",
  "tool_use_result",
  "slot_push",
  "slot_settled",
  "tasks",
  "inbox",
  "compaction_end",
  "subagent_invoked",
  "subagent_completed",
]);

interface Delta {
  text?: unknown;
  agentPath?: unknown;
}
interface Appended {
  messages?: Array<{ sender?: unknown }>;
}

/**
 * Keeps a conversation's page current: mounted, it follows the conversation's events, shows the
 * model's text as it streams and reads the conversation again after each change; standalone, it
 * reads it again every POLL_MS while the page is visible. `refresh` may change every render.
 * Returns the text streaming now (the top agent's; empty when none).
 */
export function useLiveConversation(
  id: string,
  mode: StudioInfo["mode"] | undefined,
  refresh: () => Promise<unknown>,
): string {
  const [streaming, setStreaming] = useState("");
  const latest = useRef(refresh);
  latest.current = refresh;

  useEffect(() => {
    setStreaming("");
    if (mode === undefined) return;
    // One read at a time; changes meanwhile ask for one more after it.
    let running = false;
    let again = false;
    let clearAfter = false;
    const read = async (): Promise<void> => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      do {
        again = false;
        const clear = clearAfter;
        clearAfter = false;
        await latest.current().catch(() => undefined);
        // The streamed text is stored now and shown as a message: the live copy goes.
        if (clear) setStreaming("");
      } while (again);
      running = false;
    };

    if (mode === "standalone") {
      const timer = setInterval(() => {
        if (document.visibilityState === "visible") void read();
      }, POLL_MS);
      return () => clearInterval(timer);
    }
    return followEvents(id, {
      onReset: () => void read(),
      onEvent(type, data) {
        if (type === "text_delta") {
          const delta = data as Delta | undefined;
          if (typeof delta?.text === "string" && delta.agentPath === undefined)
            setStreaming((text) => text + (delta.text as string));
          return;
        }
        if (type === "turn_start" || type === "turn_end") setStreaming("");
        if (type === "messages_appended" && (data as Appended | undefined)?.messages?.some((m) => m.sender === "agent"))
          clearAfter = true;
        if (CHANGES.has(type)) void read();
      },
    });
  }, [id, mode]);

  return streaming;
}
