/**
 * scripts/notices.mjs (with bundled-packages.mjs) run on a made-up tree: its own copy in a temporary folder
 * with a package.json, a lockfile, node_modules and an esbuild metafile written here, so the expected notices
 * and SBOM come from this test's inputs, not from the real bundle.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../helpers/manual.js';

const MIT = 'MIT License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy';

/** A tree whose bundle carries `bytes` of each package (0: tree-shaken away); each has a LICENSE unless told. */
function tree(packages: { name: string; bytes: number; deps?: string[]; licence?: boolean }[]): string {
  const root = mkdtempSync(join(tmpdir(), 'energy-notices-'));
  mkdirSync(join(root, 'scripts'));
  for (const script of ['notices.mjs', 'bundled-packages.mjs', 'build-date.mjs'])
    copyFileSync(join(repoRoot, 'scripts', script), join(root, 'scripts', script));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'tool', version: '1.0.0', license: 'MIT' }));
  const lock: Record<string, object> = {};
  const inputs: Record<string, { bytesInOutput: number }> = { 'src/main.ts': { bytesInOutput: 100 } };
  for (const { name, bytes, deps = [], licence = true } of packages) {
    const dir = join(root, 'node_modules', name);
    mkdirSync(dir, { recursive: true });
    const dependencies = Object.fromEntries(deps.map((dep) => [dep, '^1.0.0']));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', license: 'MIT', dependencies }));
    if (licence) writeFileSync(join(dir, 'LICENSE'), `${MIT} (${name})\n`);
    writeFileSync(join(dir, 'index.js'), 'module.exports = 1;\n');
    inputs[`node_modules/${name}/index.js`] = { bytesInOutput: bytes };
    lock[`node_modules/${name}`] = {
      version: '1.0.0',
      integrity: `sha512-${Buffer.alloc(64, name).toString('base64')}`,
    };
  }
  writeFileSync(join(root, 'package-lock.json'), JSON.stringify({ packages: { '': {}, ...lock } }));
  mkdirSync(join(root, 'dist', 'bin'), { recursive: true });
  const imports = packages.map(({ name }) => ({ path: `node_modules/${name}/index.js` }));
  writeFileSync(
    join(root, 'dist', 'bin', 'meta.json'),
    JSON.stringify({
      inputs: {
        'src/main.ts': { imports },
        ...Object.fromEntries(packages.map(({ name }) => [`node_modules/${name}/index.js`, { imports: [] }])),
      },
      outputs: { 'dist/bin/main.cjs': { inputs } },
    }),
  );
  return root;
}

function run(root: string) {
  return spawnSync(process.execPath, [join(root, 'scripts', 'notices.mjs')], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, SOURCE_DATE_EPOCH: '0' },
  });
}

interface Bom {
  components: { name: string; 'bom-ref': string }[];
  dependencies: { ref: string; dependsOn: string[] }[];
}

describe('scripts/notices.mjs', () => {
  it('lists what the bundle carries only: a package tree-shaken to nothing is neither a component nor a notice', () => {
    const root = tree([
      { name: 'kept', bytes: 40, deps: ['also-kept', 'shaken', 'not-installed'] },
      { name: 'also-kept', bytes: 7 },
      { name: 'shaken', bytes: 0 },
    ]);
    const result = run(root);
    expect(result.status, result.stderr).toBe(0);
    const bom = JSON.parse(readFileSync(join(root, 'dist', 'sbom.cdx.json'), 'utf8')) as Bom;
    expect(bom.components.map((c) => c.name)).toEqual(['also-kept', 'kept']);
    const notices = readFileSync(join(root, 'dist', 'THIRD_PARTY_NOTICES.md'), 'utf8');
    expect(notices).toContain('## kept 1.0.0');
    expect(notices).toContain(`${MIT} (also-kept)`);
    expect(notices).not.toContain('shaken');
  });

  it('names in an edge only packages that are components: a dependency not bundled, or not installed, is no edge', () => {
    const root = tree([
      { name: 'kept', bytes: 40, deps: ['also-kept', 'shaken', 'not-installed'] },
      { name: 'also-kept', bytes: 7 },
      { name: 'shaken', bytes: 0 },
    ]);
    expect(run(root).status).toBe(0);
    const bom = JSON.parse(readFileSync(join(root, 'dist', 'sbom.cdx.json'), 'utf8')) as Bom;
    expect(bom.dependencies.find((d) => d.ref === 'pkg:npm/kept@1.0.0')!.dependsOn).toEqual([
      'pkg:npm/also-kept@1.0.0',
    ]);
  });

  it('stops the build when a bundled package has no licence text, writing no notices', () => {
    const root = tree([
      { name: 'kept', bytes: 40 },
      { name: 'unlicensed', bytes: 3, licence: false },
    ]);
    const result = run(root);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('node_modules/unlicensed: no licence text');
    expect(existsSync(join(root, 'dist', 'THIRD_PARTY_NOTICES.md'))).toBe(false);
    expect(existsSync(join(root, 'dist', 'sbom.cdx.json'))).toBe(false);
  });
});
