// The packages whose code the bundle carries, from esbuild's own account of it (dist/bin/meta.json, every
// build's metafile, written by scripts/bundle.mjs): a package counts when some of its bytes are in an output
// file. Read by scripts/notices.mjs, which writes their notices, and by scripts/check-package.sh, which checks
// that the packed tarball has a notice for each.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The innermost node_modules package of a path: `node_modules/pg/lib/x.js` → `node_modules/pg`. */
export function packageDir(path) {
  const at = path.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const parts = path.slice(at + 'node_modules/'.length).split('/');
  return path.slice(0, at) + 'node_modules/' + (parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]);
}

/** `[{ dir, manifest, outputs }]`, one per bundled package folder, sorted by name and version. */
export function bundledPackages(root) {
  const meta = JSON.parse(readFileSync(join(root, 'dist/bin/meta.json'), 'utf8'));
  const outputsOf = new Map();
  for (const [output, { inputs }] of Object.entries(meta.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
      const dir = packageDir(input);
      if (dir === undefined || bytesInOutput === 0) continue;
      if (!outputsOf.has(dir)) outputsOf.set(dir, new Set());
      outputsOf.get(dir).add(output);
    }
  }
  return [...outputsOf.entries()]
    .map(([dir, outputs]) => ({
      dir,
      manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')),
      outputs: [...outputs].sort(),
    }))
    .sort((a, b) =>
      a.manifest.name === b.manifest.name
        ? a.manifest.version.localeCompare(b.manifest.version)
        : a.manifest.name < b.manifest.name
          ? -1
          : 1,
    );
}

/** The folders of the packages our own code imports (the vendor files' stand-in entries included). */
export function directPackageDirs(root) {
  const meta = JSON.parse(readFileSync(join(root, 'dist/bin/meta.json'), 'utf8'));
  return new Set(
    Object.entries(meta.inputs)
      .filter(([input]) => packageDir(input) === undefined)
      .flatMap(([, { imports }]) => imports.map((i) => packageDir(i.path)))
      .filter((dir) => dir !== undefined),
  );
}
