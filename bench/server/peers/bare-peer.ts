/**
 * The floor: a bare node:http SSE server whose turn is adapter-e2e's bare loop (`fetch`, a minimal
 * SSE parser, the `lookup` tool, history in an array), each event written as one SSE frame.
 */
import { createBareSession } from "../../adapter-e2e/bare-loop.js";
import { startBareTarget, type RunningBare } from "../bare-target.js";
import type { PeerOptions } from "./peer-options.js";

export function startBarePeer(options: PeerOptions): Promise<RunningBare> {
  return startBareTarget({ events: [], batch: 1 }, () => {
    let emit: (type: string, data: unknown) => void = () => undefined;
    const session = createBareSession(options.modelURL, (type, data) => emit(type, data));
    return async (text, emitFrame) => {
      emit = emitFrame;
      await session.request(text);
    };
  });
}
