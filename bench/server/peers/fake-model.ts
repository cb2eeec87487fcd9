/** The fake OpenAI server of the peers bench, in its own process: per message one `lookup` call, then a 20-chunk answer. */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { startFakeOpenAI, type AnswerPlan } from "../../adapter-e2e/fake-openai.js";

/** 20 words: streamed as 20 text chunks. */
export const ANSWER =
  "Item 1 is in stock: seven units in the warehouse, ready to ship today, with delivery in two working days.";
/** The tool call comes without text before it: every text event of a turn is the answer's. */
export const PLAN: AnswerPlan = { toolTurns: 1, text: ANSWER, preamble: false };

export interface FakeModel {
  url: string;
  close(): Promise<void>;
}

/** In a child process (the bench: its CPU is billed to nobody). */
export async function spawnFakeModel(): Promise<FakeModel> {
  const file = fileURLToPath(new URL("../../adapter-e2e/server-main.js", import.meta.url));
  const child: ChildProcess = spawn(process.execPath, [file, JSON.stringify(PLAN)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout!.setEncoding("utf8");
  while (!out.includes("\n")) {
    const [chunk] = (await once(child.stdout!, "data")) as [string];
    out += chunk;
  }
  return {
    url: out.trim(),
    close: async () => {
      child.kill();
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

/** In this process (the smoke test). */
export async function startFakeModel(): Promise<FakeModel> {
  const { server, url } = await startFakeOpenAI(0, PLAN);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
