/** A bench server in its own process: `node child.js glove|bare`, options in $BENCH_TARGET, driven over IPC. */
import { answer, serve, type TargetKind, type TargetOptions } from "./targets.js";
import { countWrites } from "./write-counter.js";

const kind = process.argv[2] as TargetKind;
const options = JSON.parse(process.env.BENCH_TARGET ?? "{}") as TargetOptions;
countWrites();
const serving = await serve(kind, options);

process.on("message", (message: { id: number; op: string }) => {
  answer(serving, message as Parameters<typeof answer>[1]).then(
    (result) => {
      process.send!({ type: "reply", id: message.id, result }, () => {
        // Exit after the reply is out, so --cpu-prof writes its profile.
        if (message.op === "exit") process.exit(0);
      });
    },
    (error: unknown) => process.send!({ type: "reply", id: message.id, error: String(error) }),
  );
});
process.on("disconnect", () => process.exit(0));
process.send!({ type: "ready", url: serving.url });
