import { describe } from "vitest";
import { postgresStorage } from "glove-server/postgres";
import { inspectorCases } from "./inspector-cases.js";
import { postgresSchemas } from "./pg-schemas.js";

const { pool, schema } = postgresSchemas("glove_inspect");

describe("storage inspection on PostgreSQL", () => {
  inspectorCases(async (traces) => postgresStorage({ pool, schema: schema(), ...(traces ? { traces } : {}) }));
});
