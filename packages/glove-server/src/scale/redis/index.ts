/** glove-server/redis: the same server as many instances on PostgreSQL + Redis (the scale mode). */
export { redisScale } from "./redis-scale.js";
export type { RedisScaleOptions } from "./redis-scale-options.js";
