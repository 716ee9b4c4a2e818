/**
 * The build writes each bundle that the entry loads through the code cache (main.cjs, light.cjs, sandbox.cjs,
 * topics.cjs, vendor/*.cjs) inside this wrapper, so that code-cache.ts compiles the file's text as it was read.
 * Joining CommonJS's wrapper to the text at run time made a second copy of it (V8 flattens the joined string
 * before it compiles): 72 KB of light.cjs allocated twice in the young generation, which with the rest made
 * `balance` pay a collection (a scavenge, ~1 ms) on Node 20 and 22 that the bare signed GET does not (issue 48).
 * The text is a script whose value is the module function, when compiled as code-cache.ts does; required by
 * Node's own loader (any other way to load the file), it calls that function with the module's own arguments.
 */

/** What a wrapped file begins with (code-cache.ts tells a wrapped file by it). */
export const WRAPPED_HEAD =
  '(function (f) { return typeof module === "object" && module !== null && this === module.exports ? ' +
  'f.call(this, exports, require, module, __filename, __dirname) : f; }).call(this, ' +
  '(function (exports, require, module, __filename, __dirname) { ';
/** What it ends with. */
export const WRAPPED_TAIL = '\n}));\n';

/** A bundle's text, wrapped. */
export function wrapBundle(source: string): string {
  return `${WRAPPED_HEAD}${source}${WRAPPED_TAIL}`;
}
