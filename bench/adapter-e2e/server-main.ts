/** Runs the fake OpenAI server in its own process, so its CPU is not billed to the loops. Argument: an AnswerPlan as JSON. */
import { startFakeOpenAI, type AnswerPlan } from "./fake-openai.js";

const plan = JSON.parse(process.argv[2] ?? "{}") as AnswerPlan;
const { url } = await startFakeOpenAI(0, plan);
process.stdout.write(`${url}\n`);
