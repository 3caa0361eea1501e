#!/usr/bin/env bash
# Prove the exported JSON Schemas work in other languages, for every bundle in schemas/dist/:
#   1. json-schema-to-typescript generates TypeScript, with one name per schema type (no `LongText1`);
#   2. scripts/ts/usage.ts compiles with `tsc --noEmit --strict`: unions narrow on `type` with a plain
#      `switch`, no casts and no hand-written guards;
#   2b. the same for OpenAI's wire forms (`replayable schema --provider openai`, in gen/openai/):
#      scripts/ts/usage_openai.ts narrows on un-prefixed types (`case "web_search_call"`) and refuses typos
#      where the spec closes an object (`@ts-expect-error`), and OpenAI's recorded data (the example Response,
#      ../shared/corpus where present; scripts/ts/openai_data.py) compiles typed with those types, and Ajv
#      gives `parse_item(provider="openai")`'s verdict on the differential's instances, un-prefixed;
#   3. Ajv (JSON Schema 2020-12) gives the Python parser's verdict on every instance that
#      scripts/differential.py writes (fixtures, ../shared cases and corpus, generated and mutated values).
#
#   scripts/check_typescript.sh      # needs node and npm, and the project's .venv (make install)
#
# Versions are pinned in scripts/ts/package.json and package-lock.json (installed with `npm ci`);
# node_modules/ and the generated gen/ folder are git-ignored. Exit 0 when all three hold.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
ts="$here/ts"
python="${PYTHON:-$root/.venv/bin/python}"
cd "$ts"

if [[ ! -x node_modules/.bin/json2ts || ! -x node_modules/.bin/tsc || ! -d node_modules/ajv || package-lock.json -nt node_modules/.package-lock.json ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

rm -rf gen
mkdir gen
shopt -s nullglob
bundles=("$root"/schemas/dist/*.json)
if (( ${#bundles[@]} == 0 )); then
  echo "no bundles in schemas/dist/: run python scripts/bundle_schemas.py" >&2
  exit 1
fi
for schema in "${bundles[@]}"; do
  name="$(basename "$schema" .json)"
  node_modules/.bin/json2ts --input "$schema" --output "gen/$name.ts" --cwd "$root/schemas/dist"
  echo "generated scripts/ts/gen/$name.ts"
done
node check_aliases.mjs gen "$root/schemas/dist"

mkdir gen/openai
for side in input output; do
  "$python" -m replayable schema --side "$side" --provider openai -o "gen/openai/$side.json"
  node_modules/.bin/json2ts --input "gen/openai/$side.json" --output "gen/openai/$side.ts" --cwd gen/openai
  echo "generated scripts/ts/gen/openai/$side.ts (replayable schema --side $side --provider openai)"
done
node check_aliases.mjs gen/openai gen/openai
"$python" openai_data.py gen/openai/data.ts gen/openai-instances.json

node_modules/.bin/tsc --project tsconfig.json --noEmit --strict
node_modules/.bin/tsc --noEmit --strict --skipLibCheck gen/*.ts gen/openai/*.ts
echo "TypeScript from schemas/dist/ compiles and narrows (json-schema-to-typescript $(node -p 'require("json-schema-to-typescript/package.json").version'), typescript $(node_modules/.bin/tsc --version | cut -d' ' -f2))"

"$python" "$root/scripts/differential.py" --out gen/instances.json
node ajv_diff.mjs gen/instances.json "$root/schemas/dist"
node ajv_diff.mjs gen/openai-instances.json gen/openai  # the wire bundles: OpenAI mode's verdicts
