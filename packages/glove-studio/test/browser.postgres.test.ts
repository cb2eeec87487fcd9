import { describeStudioViews } from "./support/view-cases.js";
import { postgresKind } from "./support/storages.js";

describeStudioViews(postgresKind, { screenshots: false });
