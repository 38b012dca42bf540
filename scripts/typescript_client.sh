#!/usr/bin/env bash
# A TypeScript client of the HTTP API, at development time: the types openapi-typescript (npm)
# generates from the OpenAPI document, and a small usage file (scripts/typescript/usage.ts)
# type-checked against them with tsc. Fails when the document does not generate, or when the
# operations are not named by their operationId. Needs npm and the package installed
# (CI runs it from .ci/run); the npm packages go to build/typescript-client, not the repo.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/typescript-client
mkdir -p "$out"
cp scripts/typescript/usage.ts "$out/usage.ts"
python -c 'import json, neweden; from neweden.http.api_types import openapi; print(json.dumps(openapi(neweden.__version__)))' >"$out/openapi.json"
cd "$out"
[ -f package.json ] || echo '{"private": true}' >package.json
npm install --silent --no-audit --no-fund --save-dev openapi-typescript@7 typescript@5 >/dev/null
# a default makes a property optional in a body (not required, as it would be in an answer)
npx --no-install openapi-typescript openapi.json --default-non-nullable false --output neweden.ts
npx --no-install tsc --strict --noEmit --target es2022 --module es2022 --moduleResolution bundler \
  --lib es2022,dom usage.ts
echo "typescript client: types generated from openapi.json, usage.ts type-checks"
