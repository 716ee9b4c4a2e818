#!/usr/bin/env node
// The packed package.json has no `prepare` script: a tarball is built already, and npm 11 warns on a global
// install of a package with install scripts ("not yet covered by allowScripts"). `prepack` runs this with
// --disable (renamed to `_prepare`, as pinst does for postinstall), `postpack` with --enable.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package.json', import.meta.url);
const text = readFileSync(file, 'utf8');
const [from, to] = process.argv[2] === '--disable' ? ['"prepare":', '"_prepare":'] : ['"_prepare":', '"prepare":'];
if (text.includes(from)) writeFileSync(file, text.replace(from, to));
