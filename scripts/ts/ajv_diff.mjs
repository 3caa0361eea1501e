// A second validator that agrees with the parser: validate every instance written by
// scripts/differential.py with Ajv (JSON Schema 2020-12) against schemas/dist/<side>.json, and fail on
// any value where Ajv's verdict differs from the Python parser's.
//
//   node scripts/ts/ajv_diff.mjs INSTANCES.json [DIST_DIR]
//
// Ajv runs in strict mode. `discriminator` (an OpenAPI annotation for code generators) and `tsType` (for
// json-schema-to-typescript) are declared as annotation keywords: they never change a verdict. Formats
// are annotations in 2020-12 (the format-annotation vocabulary), so they are not asserted, as in
// jsonschema-rs and the models. Exit 0 when every verdict agrees, 1 otherwise, 2 on a usage error.
import { readFileSync, readdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default;
const ajvVersion = require("ajv/package.json").version;

const here = dirname(fileURLToPath(import.meta.url));
const [instancesPath, distArg] = process.argv.slice(2);
if (!instancesPath) {
  console.error("usage: node ajv_diff.mjs INSTANCES.json [DIST_DIR]");
  process.exit(2);
}
const dist = resolve(distArg ?? join(here, "..", "..", "schemas", "dist"));
const { values, verdicts } = JSON.parse(readFileSync(instancesPath, "utf8"));

const bundles = readdirSync(dist).filter((f) => f.endsWith(".json")).map((f) => basename(f, ".json")).sort();
const unjudged = bundles.filter((side) => !(side in verdicts));
if (unjudged.length) {
  console.error(`no Python verdicts for bundle(s) ${unjudged.join(", ")}: add a parser in scripts/differential.py`);
  process.exit(1);
}

let failed = 0;
for (const side of bundles) {
  const ajv = new Ajv2020({ strict: true, allErrors: false, validateFormats: false });
  ajv.addKeyword({ keyword: "discriminator", schemaType: "object" });
  ajv.addKeyword({ keyword: "tsType", schemaType: "string" });
  const validate = ajv.compile(JSON.parse(readFileSync(join(dist, `${side}.json`), "utf8")));
  const expected = verdicts[side];
  if (expected.length !== values.length) {
    console.error(`${side}: ${expected.length} verdicts for ${values.length} values`);
    process.exit(2);
  }
  const diffs = [];
  values.forEach(({ source, value }, i) => {
    const byAjv = validate(value);
    if (byAjv !== expected[i]) {
      const why = byAjv ? "" : ` (${ajv.errorsText(validate.errors)})`;
      diffs.push(`  ${source}: Ajv ${byAjv}, parser ${expected[i]}${why}: ${JSON.stringify(value).slice(0, 300)}`);
    }
  });
  const accepted = expected.filter(Boolean).length;
  if (diffs.length) {
    failed += diffs.length;
    console.log(`DIFF ${side}: ${diffs.length} of ${values.length} values judged differently`);
    console.log(diffs.slice(0, 25).join("\n"));
  } else {
    console.log(`ok ${side}: Ajv and the parser agree on ${values.length} values (${accepted} valid)`);
  }
}
if (failed) {
  console.log(`Ajv ${ajvVersion} disagrees with the Python parser on ${failed} verdicts`);
  process.exit(1);
}
console.log(`Ajv ${ajvVersion} (2020-12) agrees with the Python parser on every bundle (${bundles.length} bundles)`);
