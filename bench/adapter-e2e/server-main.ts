/** Runs the fake OpenAI server in its own process, so its CPU is not billed to the loops. */
import { startFakeOpenAI } from "./fake-openai.js";

const { url } = await startFakeOpenAI();
process.stdout.write(`${url}\n`);
