#!/usr/bin/env bash
# Prove the exported JSON Schemas work in another language: generate TypeScript from every bundle in
# schemas/dist/ with json-schema-to-typescript, then compile scripts/ts/usage.ts with `tsc --noEmit`.
#
#   scripts/check_typescript.sh      # needs node and npm; installs the pinned tools into scripts/ts/node_modules
#
# Versions are pinned in scripts/ts/package.json and package-lock.json (installed with `npm ci`);
# node_modules/ and the generated gen/ folder are git-ignored. Exit 0 when everything compiles.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
ts="$here/ts"
cd "$ts"

if [[ ! -x node_modules/.bin/json2ts || ! -x node_modules/.bin/tsc || package-lock.json -nt node_modules/.package-lock.json ]]; then
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

node_modules/.bin/tsc --project tsconfig.json --noEmit
node_modules/.bin/tsc --noEmit --strict --skipLibCheck gen/*.ts
echo "TypeScript from schemas/dist/ compiles (json-schema-to-typescript $(node -p 'require("json-schema-to-typescript/package.json").version'), typescript $(node_modules/.bin/tsc --version | cut -d' ' -f2))"
