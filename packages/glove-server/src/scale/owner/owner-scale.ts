import { InboxPoller } from "../../conversations/inbox-poller.js";
import { ControlChannel } from "../redis/control-channel.js";
import { connectRedis } from "../redis/redis-connection.js";
import { EventTail } from "../redis/event-tail.js";
import { resolveRedisScale, type RedisScaleOptions } from "../redis/redis-scale-options.js";
import type { ScaleContext, ScaleRuntime, ServerScale } from "../server-scale.js";
import { OwnerHost } from "./owner-host.js";

/**
 * The scale mode as one engine (see owner-host.ts): each conversation is run by the instance that
 * owns it, with the single process's code; other instances forward to it and read its events from
 * Redis. Takes the same options as `redisScale` (plus `leaseMs`).
 */
export function ownerScale(options: RedisScaleOptions): ServerScale {
  const scale = resolveRedisScale(options);
  return {
    kind: "redis-owner",
    start(context: ScaleContext): ScaleRuntime {
      const instanceId = crypto.randomUUID();
      const command = connectRedis(scale, { enableAutoPipelining: true });
      const subscriber = connectRedis(scale);
      const log = context.options.log;
      const control = new ControlChannel(command, subscriber, scale.prefix, instanceId, (error) =>
        log("[glove-server] control message failed", error),
      );
      const tail = new EventTail(command, scale.tailConnections, () => undefined);
      const host = new OwnerHost({
        redis: command,
        control,
        tail,
        storage: context.storage,
        agents: context.agents,
        options: context.options,
        scale,
        inboxPoller: InboxPoller.for(context.storage, context.options),
        instanceId,
      });
      const started = host.start();
      started.catch((error: unknown) => log("[glove-server] could not start the scale mode", error));
      let closing: Promise<void> | undefined;
      return {
        host: {
          get size() {
            return host.size;
          },
          get hibernated() {
            return host.hibernated;
          },
          open: async (record, principal) => {
            await started;
            return host.open(record, principal);
          },
          forget: (id) => host.forget(id),
          closeAll: () => host.closeAll(),
        },
        close() {
          closing ??= (async () => {
            await host.closeAll();
            control.close();
            await tail.close();
            for (const redis of [command, subscriber]) await redis.quit().catch(() => redis.disconnect());
          })();
          return closing;
        },
      };
    },
  };
}
