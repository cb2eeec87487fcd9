/** The AI SDK peer's client: one POST per message, its UI message stream read to the end. */
import http from "node:http";
import { TOKEN } from "../fixtures.js";

/** What one streamed answer carried. */
export interface ChatReply {
  /** `text-delta` chunks. */
  textDeltas: number;
  /** Every `data:` frame ([DONE] excluded). */
  frames: number;
  text: string;
}

export class AiSdkClient {
  readonly #agent = new http.Agent({ keepAlive: true, timeout: 4000 });
  readonly #base: URL;

  constructor(base: string) {
    this.#base = new URL(base);
  }

  /** POSTs `text` to the conversation and reads its UI message stream. */
  chat(id: string, text: string): Promise<ChatReply> {
    return this.#post(id, JSON.stringify({ text }), true);
  }

  #post(id: string, payload: string, retryOnStaleSocket: boolean): Promise<ChatReply> {
    return new Promise((resolve, reject) => {
      let answered = false;
      const req = http.request(
        {
          host: this.#base.hostname,
          port: this.#base.port,
          path: `/conversations/${id}/chat`,
          method: "POST",
          agent: this.#agent,
          headers: {
            authorization: `Bearer ${TOKEN}`,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(payload),
          },
        },
        (res) => {
          answered = true;
          if (res.statusCode !== 200) {
            res.resume();
            reject(new Error(`chat: HTTP ${res.statusCode}`));
            return;
          }
          const reply: ChatReply = { textDeltas: 0, frames: 0, text: "" };
          let buffer = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            buffer += chunk;
            let end: number;
            while ((end = buffer.indexOf("\n\n")) !== -1) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              if (!block.startsWith("data: ") || block === "data: [DONE]") continue;
              reply.frames++;
              const chunkData = JSON.parse(block.slice(6)) as { type: string; delta?: string };
              if (chunkData.type === "text-delta") {
                reply.textDeltas++;
                reply.text += chunkData.delta ?? "";
              }
            }
          });
          res.on("end", () => resolve(reply));
          res.on("error", reject);
        },
      );
      req.on("error", (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed just as we reused it: the request never reached
        // the server, so sending it again on a fresh socket is what Node's docs advise.
        if (retryOnStaleSocket && !answered && req.reusedSocket && error.code === "ECONNRESET") {
          this.#post(id, payload, false).then(resolve, reject);
        } else reject(error);
      });
      req.end(payload);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}
