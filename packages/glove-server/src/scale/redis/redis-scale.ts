import { Queue } from "./drivers.js";
import { connectRedis } from "./redis-connection.js";
import { PickupWorker } from "./pickup-worker.js";
import type { ScaleContext, ScaleRuntime, ServerScale } from "../server-scale.js";
import { ControlChannel } from "./control-channel.js";
import { EventTail } from "./event-tail.js";
import { conversationKeys } from "./keys.js";
import { resolveRedisScale, type RedisScaleOptions } from "./redis-scale-options.js";
import { InboxPoller } from "../../conversations/inbox-poller.js";
import type { ScaleShared, TurnJobData } from "./scale-shared.js";
import { ScaledHost } from "./scaled-host.js";
import { withScripts } from "./scripts.js";
import { TurnWorker } from "./turn-job.js";

/**
 * The scale mode on Redis: run the same server as many stateless instances sharing PostgreSQL
 * (`postgresStorage()`) and Redis. Turns are BullMQ jobs (one per conversation at a time, taken over
 * by another instance when their worker dies), events go to a Redis stream per conversation whose
 * entry ids are the SSE ids, slot answers and aborts reach the instance running the turn.
 *
 * ```ts
 * createGloveServer({ agents, authenticate, store: postgresStorage({ connectionString }), scale: redisScale({ redis: "redis://127.0.0.1:6379" }) })
 * ```
 */
export function redisScale(options: RedisScaleOptions): ServerScale {
  const scale = resolveRedisScale(options);
  return {
    kind: "redis",
    start(context: ScaleContext): ScaleRuntime {
      const instanceId = crypto.randomUUID();
      const command = withScripts(connectRedis(scale, { enableAutoPipelining: true }));
      const subscriber = connectRedis(scale);
      const log = context.options.log;
      const bullPrefix = `${scale.prefix}:bull`;
      const queue = new Queue<TurnJobData>(scale.queueName, { connection: connectRedis(scale), prefix: bullPrefix });
      queue.on("error", () => undefined);
      const shared: ScaleShared = {
        redis: command,
        queue,
        control: new ControlChannel(command, subscriber, scale.prefix, instanceId, (error) =>
          log("[glove-server] control message failed", error),
        ),
        tail: new EventTail(command, scale.tailConnections, () => undefined),
        inbox: InboxPoller.for(context.storage, context.options),
        keys: (id) => conversationKeys(scale.prefix, id),
        storage: context.storage,
        agents: context.agents,
        options: context.options,
        scale,
      };
      const turns = new TurnWorker(shared);
      // Starts each fetched turn at once and fetches a burst in parallel (decision 0039).
      const worker = new PickupWorker<TurnJobData>(scale.queueName, (job, token) => turns.process(job, token), {
        connection: connectRedis(scale),
        autorun: false,
        prefix: bullPrefix,
        concurrency: scale.concurrency,
        lockDuration: scale.turnLockMs,
        stalledInterval: scale.turnLockMs,
        // Every kill of a worker is a stall: never give a turn up for that.
        maxStalledCount: Number.MAX_SAFE_INTEGER,
      });
      worker.on("error", () => undefined);
      void worker.run().catch(() => undefined);
      const host = new ScaledHost(shared);
      let closing: Promise<void> | undefined;
      return {
        host,
        close() {
          closing ??= (async () => {
            const stopping = worker.close();
            await turns.handOverAll();
            await stopping.catch(() => undefined);
            shared.control.close();
            await shared.tail.close();
            await queue.close().catch(() => undefined);
            for (const redis of [command, subscriber]) await redis.quit().catch(() => redis.disconnect());
          })();
          return closing;
        },
      };
    },
  };
}
