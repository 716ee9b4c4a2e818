/**
 * dist/sbom.cdx.json (written by scripts/notices.mjs at build) is a valid CycloneDX 1.5 document: validated
 * against the specification's own JSON schema (test/fixtures/cyclonedx, kept in the repository) with Ajv, a
 * dev dependency; every dependency edge names a component of the document; pg-pool's dependence on pg (a
 * peer dependency) is an edge; each component carries the lockfile's SHA-512 of its package.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/manual.js';

interface Bom {
  metadata: { component: { 'bom-ref': string } };
  components: { 'bom-ref': string; name: string; version: string; hashes?: { alg: string; content: string }[] }[];
  dependencies: { ref: string; dependsOn: string[] }[];
}

const read = (file: string) => JSON.parse(readFileSync(join(repoRoot, file), 'utf8')) as unknown;
const bom = read('dist/sbom.cdx.json') as Bom;

describe('the SBOM', () => {
  it('is valid against the CycloneDX 1.5 JSON schema', () => {
    // Formats (iri-reference, idn-email …) are not checked: the structure, types, enums and patterns are.
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    for (const name of ['spdx.schema.json', 'jsf-0.82.schema.json'])
      ajv.addSchema(read(`test/fixtures/cyclonedx/${name}`) as object);
    const validate = ajv.compile(read('test/fixtures/cyclonedx/bom-1.5.schema.json') as object);
    const valid = validate(bom);
    expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
    expect(valid).toBe(true);
    // The schema is live: a document it must refuse is refused.
    expect(validate({ ...bom, components: [{ name: 'no type' }] })).toBe(false);
  });

  it('names in its dependency edges only components it lists (and the package itself)', () => {
    const refs = new Set([bom.metadata.component['bom-ref'], ...bom.components.map((c) => c['bom-ref'])]);
    const dangling = bom.dependencies.flatMap((d) => [d.ref, ...d.dependsOn]).filter((ref) => !refs.has(ref));
    expect(dangling).toEqual([]);
  });

  it('has the edge pg-pool → pg (a peer dependency)', () => {
    const pgPool = bom.components.find((c) => c.name === 'pg-pool')!;
    const pg = bom.components.find((c) => c.name === 'pg')!;
    const edge = bom.dependencies.find((d) => d.ref === pgPool['bom-ref'])!;
    expect(edge.dependsOn).toContain(pg['bom-ref']);
  });

  it("carries each component's SHA-512, the lockfile's integrity", () => {
    const lock = read('package-lock.json') as { packages: Record<string, { version?: string; integrity?: string }> };
    for (const component of bom.components) {
      const entry = Object.entries(lock.packages).find(
        ([path, p]) => path.endsWith(`node_modules/${component.name}`) && p.version === component.version,
      )![1];
      const base64 = entry.integrity!.replace(/^sha512-/, '');
      expect(component.hashes, component.name).toEqual([
        { alg: 'SHA-512', content: Buffer.from(base64, 'base64').toString('hex') },
      ]);
      expect(component.hashes![0]!.content).toMatch(/^[0-9a-f]{128}$/);
    }
  });
});
