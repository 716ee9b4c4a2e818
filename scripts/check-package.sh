#!/usr/bin/env bash
# The package as a user gets it: pack the built tree, lint the tarball (publint, are-the-types-wrong; both
# read the .tgz, no registry), install it into a temporary prefix, and use it there: `energy --version`,
# `energy sandbox` + `energy balance`, and the library imported with its types by a TypeScript consumer.
# `npm pack` builds dist/ itself (the `prepack` script), and so does `npm install <git URL>` (npm runs only
# `prepare` for a git dependency, which builds where dist/ is missing), checked last. Every package the bundle
# carries must have its notice and SBOM entry in the tarball. The man pages are
# checked in the tarball and where a global install links them (`man energy`). Network: the npm registry for the installs' dependencies,
# 127.0.0.1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

work=$(mktemp -d)
sandbox_pid=''
cleanup() {
  if [ -n "$sandbox_pid" ]; then kill "$sandbox_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

say() { printf 'check-package: %s\n' "$*"; }

# From a tree without dist/, as a fresh clone or a git-URL install has it: prepack must build it. (grep
# without -q: -q stops reading early, tar dies of SIGPIPE and pipefail fails the check.)
rm -rf dist
tarball=$(npm pack --silent --pack-destination "$work")
tarball="$work/$tarball"
tar -tzf "$tarball" | grep -x 'package/dist/bin/energy.cjs' >/dev/null || { say "npm pack did not build dist/ (prepack)"; exit 1; }
tar -tzf "$tarball" | grep -x 'package/LICENSE' >/dev/null || { say "the tarball has no LICENSE"; exit 1; }
tar -tzf "$tarball" | grep -x 'package/dist/man/energy.1' >/dev/null || { say "the tarball has no man page"; exit 1; }
# Every package the bundle carries (esbuild's metafile, which prepack just wrote) has its notice in the tarball:
# its name and version, and its licence text, in THIRD_PARTY_NOTICES.md, and a component in the SBOM.
for shipped in dist/THIRD_PARTY_NOTICES.md dist/sbom.cdx.json CHANGELOG.md docs/service.md; do
  tar -tzf "$tarball" | grep -x "package/$shipped" >/dev/null || { say "the tarball has no $shipped"; exit 1; }
done
tar -xzf "$tarball" -C "$work" package/dist/THIRD_PARTY_NOTICES.md package/dist/sbom.cdx.json
node --input-type=module -e "
import { readFileSync, readdirSync } from 'node:fs';
import { bundledPackages } from './scripts/bundled-packages.mjs';
const notices = readFileSync('$work/package/dist/THIRD_PARTY_NOTICES.md', 'utf8');
const purls = JSON.parse(readFileSync('$work/package/dist/sbom.cdx.json', 'utf8')).components.map((c) => c.purl);
const missing = [];
const bundled = bundledPackages(process.cwd());
for (const { dir, manifest: { name, version } } of bundled) {
  const section = notices.split(/^## /m).find((s) => s.split(/\r?\n/)[0] === name + ' ' + version);
  // The licence's first words as the package ships them (its LICENSE file, or its README's section).
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
  const words = file === undefined ? 'Copyright' : readFileSync(dir + '/' + file, 'utf8').trim().split(/\s+/).slice(0, 6).join(' ');
  if (section === undefined || !section.replace(/\s+/g, ' ').includes(words)) missing.push(name + '@' + version + ': no notice with its licence text');
  if (!purls.includes('pkg:npm/' + name.replace(/^@/, '%40') + '@' + version)) missing.push(name + '@' + version + ': not in the SBOM');
}
if (bundled.length < 2) missing.push('the metafile names ' + bundled.length + ' bundled packages');
for (const line of missing) console.error(line);
if (missing.length > 0) process.exit(1);
console.log(bundled.length);
" >"$work/notices.count" || { say "third-party notices are missing (above)"; exit 1; }
say "third-party notices and SBOM: $(cat "$work/notices.count") bundled packages, each with its licence text"
version=$(node -p "require('./package.json').version")
say "packed $(basename "$tarball"): $(tar -tzf "$tarball" | wc -l) files, $(wc -c <"$tarball") bytes"
if tar -tzf "$tarball" | grep -E 'meta\.json$|^package/src/|^package/test/|/(commands|config|output|sandbox)/|\.test\.'; then
  say "the tarball ships files users do not need (above)"
  exit 1
fi

npx --no-install publint run "$tarball" --strict
# An ES module, which CommonJS can require() on Node 20.19+ and 22.12+ (the `default` condition). attw's
# esm-only profile checks the ESM and bundler resolutions; its node16-from-CJS view is TypeScript's, which
# predates require() of ES modules, so CommonJS is checked by running a require() below instead.
npx --no-install attw "$tarball" --profile esm-only

prefix="$work/prefix"
npm install --global --prefix "$prefix" --no-audit --no-fund --prefer-offline "$tarball" >/dev/null 2>"$work/global-install.log" \
  || { cat "$work/global-install.log"; say "npm install --global of the tarball failed"; exit 1; }
# The tarball is built: its package.json has no `prepare` (scripts/pack-manifest.mjs), so npm has no install
# script to warn about.
if grep -i 'install-scripts\|prepare' "$work/global-install.log"; then say "installing the tarball warns (above)"; exit 1; fi
tar -xOzf "$tarball" package/package.json | grep '"prepare"' && { say "the packed package.json has a prepare script"; exit 1; }
energy="$prefix/bin/energy"
installed="$prefix/lib/node_modules/energy-cli"

got=$("$energy" --version)
[ "$got" = "$version" ] || { say "energy --version printed '$got', not '$version'"; exit 1; }
say "energy --version: $got"
# npm links the package's "man" pages into <prefix>/share/man/man1, where `man energy` finds them.
[ -f "$prefix/share/man/man1/energy.1" ] && [ -f "$prefix/share/man/man1/energy-order-create.1" ] \
  || { say "the global install has no man pages in $prefix/share/man/man1"; exit 1; }
if command -v man >/dev/null; then
  man -M "$prefix/share/man" -P cat energy 2>/dev/null | grep 'EXIT STATUS' >/dev/null || { say "man energy shows no page"; exit 1; }
fi
say "man energy: $(ls "$prefix/share/man/man1" | wc -l) pages in share/man/man1"

# The sandbox in the background with credentials we choose, so that nothing needs to be read from a profile.
export ENERGY_CONFIG_DIR="$work/config" ENERGY_API_KEY=pkg_check_key ENERGY_API_SECRET=pkg-check-secret-0123456789
"$energy" sandbox --port 0 --no-save --json >"$work/sandbox.json" 2>"$work/sandbox.err" &
sandbox_pid=$!
for _ in $(seq 1 100); do
  [ -s "$work/sandbox.json" ] && break
  kill -0 "$sandbox_pid" 2>/dev/null || { cat "$work/sandbox.err" "$work/sandbox.json"; say "energy sandbox stopped"; exit 1; }
  sleep 0.1
done
base_url=$(node -p "JSON.parse(require('fs').readFileSync('$work/sandbox.json', 'utf8')).base_url")
balance=$("$energy" --base-url "$base_url" balance --json)
node -e "const b = JSON.parse(process.argv[1]); if (!/^\d+\.\d{6}$/.test(b.available_trx)) process.exit(1)" "$balance" \
  || { say "energy balance printed: $balance"; exit 1; }
say "energy sandbox + energy balance: $balance"
kill "$sandbox_pid"
wait "$sandbox_pid" 2>/dev/null || true
sandbox_pid=''

# A consumer project that imports the installed library and is type-checked against its .d.ts files.
consumer="$work/consumer"
mkdir -p "$consumer/node_modules"
ln -s "$installed" "$consumer/node_modules/energy-cli"
cat >"$consumer/package.json" <<'JSON'
{ "name": "consumer", "private": true, "type": "module" }
JSON
# A Node library's types use Node's (Buffer, node:net): the consumer brings @types/node, here this checkout's.
cat >"$consumer/tsconfig.json" <<JSON
{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true,
  "typeRoots": ["$root/node_modules/@types"], "types": ["node"], "skipLibCheck": false, "noEmit": true },
  "files": ["use.ts"] }
JSON
cat >"$consumer/use.ts" <<'TS'
import { EnergyClient, EnergyError, signRequest, type Order, type SignedHeaders } from 'energy-cli';

const headers: SignedHeaders = signRequest({
  method: 'GET', path: '/v1/balance', query: '', body: undefined, timestamp: 1767225600,
  apiKey: 'test_key_123', apiSecret: 'sbx-test-secret-Zm9vYmFy',
});
const status: Order['status'] = 'pending';
const uncertain = (error: unknown): boolean => error instanceof EnergyError && error.outcomeUncertain;
export const checks = { headers, status, client: typeof EnergyClient, uncertain };
TS
# tsc from this checkout, against the installed package's .d.ts files.
"$root/node_modules/.bin/tsc" -p "$consumer/tsconfig.json"
(cd "$consumer" && node --input-type=module -e "
import { signRequest, EnergyClient } from 'energy-cli';
const h = signRequest({ method: 'GET', path: '/v1/balance', query: '', body: undefined, timestamp: 1767225600,
  apiKey: 'test_key_123', apiSecret: 'sbx-test-secret-Zm9vYmFy' });
// The first openssl vector of test/fixtures/signing-vectors.json.
if (h.authorization !== 'HMAC-SHA256 test_key_123:Eg7WLMKENNYF/NiZrgCZeOyh84sV5pW+mhHZAoOmyL8=') process.exit(1);
if (typeof EnergyClient !== 'function') process.exit(1);
")
# CommonJS: require() of the ES module (Node 20.19+), through the exports map's `default` condition.
(cd "$consumer" && node -e "
const { signRequest, EnergyClient, EnergyError } = require('energy-cli');
const h = signRequest({ method: 'GET', path: '/v1/balance', query: '', body: undefined, timestamp: 1767225600,
  apiKey: 'test_key_123', apiSecret: 'sbx-test-secret-Zm9vYmFy' });
if (h.authorization !== 'HMAC-SHA256 test_key_123:Eg7WLMKENNYF/NiZrgCZeOyh84sV5pW+mhHZAoOmyL8=') process.exit(1);
if (typeof EnergyClient !== 'function' || typeof EnergyError !== 'function') process.exit(1);
")
# A CommonJS TypeScript project: with "module": "nodenext" (TypeScript 5.8+) an import of the ES module
# compiles to require() and type-checks, as docs/library.md tells CommonJS TypeScript users.
cjs="$work/cjs-consumer"
mkdir -p "$cjs/node_modules"
ln -s "$installed" "$cjs/node_modules/energy-cli"
printf '{ "name": "cjs-consumer", "private": true, "type": "commonjs" }\n' >"$cjs/package.json"
cp "$consumer/tsconfig.json" "$cjs/tsconfig.json"
printf "import { signRequest, EnergyError } from 'energy-cli';\nexport const used = [signRequest, EnergyError];\n" >"$cjs/use.ts"
"$root/node_modules/.bin/tsc" -p "$cjs/tsconfig.json" || { say "a CommonJS TypeScript project cannot type-check its import"; exit 1; }
say "library imported, required from CommonJS and type-checked from the installed package (ESM and CommonJS TypeScript)"
# `npm install <git URL>` into a project, from this checkout's HEAD: npm clones it, installs its dev
# dependencies and runs `prepare` (npm 11 runs no prepack there), so the package must come with dist/.
if head=$(git -C "$root" rev-parse --verify -q HEAD); then
  gitdep="$work/git-consumer"
  mkdir -p "$gitdep"
  printf '{ "name": "git-consumer", "private": true }\n' >"$gitdep/package.json"
  (cd "$gitdep" && npm install --no-audit --no-fund --prefer-offline "git+file://$root#$head" >"$work/git-install.log" 2>&1) \
    || { cat "$work/git-install.log"; say "npm install <git URL> failed"; exit 1; }
  got=$("$gitdep/node_modules/.bin/energy" --version) || { say "npm install <git URL> gave no working energy"; exit 1; }
  [ -f "$gitdep/node_modules/energy-cli/dist/index.js" ] || { say "npm install <git URL> gave no dist/index.js"; exit 1; }
  say "npm install git+file://…#${head:0:8}: energy --version $got, dist/ built by prepare"
fi
say "ok"
