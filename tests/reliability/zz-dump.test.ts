import fs from "node:fs";
import { it } from "vitest";
import { openApiDocument } from "~/routes/api+/openapi.server";
it("dump", () => { fs.writeFileSync("/tmp/oa/doc.json", JSON.stringify(openApiDocument(), null, 2)); });
