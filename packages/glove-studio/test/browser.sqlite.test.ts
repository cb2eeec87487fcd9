import { describeStudioViews } from "./support/view-cases.js";
import { sqliteKind } from "./support/storages.js";

describeStudioViews(sqliteKind, { screenshots: true });
