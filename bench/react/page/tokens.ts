/**
 * The token source both chats read: `count` tokens, each delivered in its own macrotask (a
 * MessageChannel message, as network chunks arrive), so React may commit between any two.
 */
import { tokenAt } from "../text.js";

export { fullText, historyText, tokenAt } from "../text.js";

/** Calls `onToken` for each token, one macrotask each; resolves after the last. */
export function streamTokens(
  count: number,
  onToken: (token: string, index: number) => void | Promise<void>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (count <= 0) return resolve();
    const channel = new MessageChannel();
    let i = 0;
    channel.port1.onmessage = () => {
      Promise.resolve(onToken(tokenAt(i), i)).then(
        () => {
          i++;
          if (i < count) channel.port2.postMessage(null);
          else {
            channel.port1.close();
            resolve();
          }
        },
        (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
      );
    };
    channel.port2.postMessage(null);
  });
}
