// One TypeScript name per schema type: every type json-schema-to-typescript exported from a bundle must be
// named by a title in that bundle (a `$defs` entry or the root). A numbered copy such as `LongText1` or
// `ItemStatus2` means a type was emitted twice; scripts/check_typescript.sh fails on it.
//
//   node scripts/ts/check_aliases.mjs GEN_DIR DIST_DIR
import { readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";

const [gen, dist] = process.argv.slice(2);
let bad = 0;
for (const file of readdirSync(gen).filter((f) => f.endsWith(".ts")).sort()) {
  const side = basename(file, ".ts");
  const bundle = JSON.parse(readFileSync(join(dist, `${side}.json`), "utf8"));
  const titles = new Set([bundle.title, ...Object.values(bundle.$defs).map((d) => d.title)]);
  const names = [...readFileSync(join(gen, file), "utf8").matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]);
  const strays = names.filter((n) => !titles.has(n));
  if (strays.length) {
    bad += strays.length;
    console.log(`${file}: types not named by the bundle (duplicates or untitled): ${strays.join(", ")}`);
  }
  if (new Set(names).size !== names.length) {
    bad += 1;
    console.log(`${file}: a type is exported twice`);
  }
}
if (bad) process.exit(1);
console.log("one TypeScript name per schema type in every generated file");
