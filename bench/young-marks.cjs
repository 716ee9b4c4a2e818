// Preloaded (`node --min-semi-space-size=64 -r bench/young-marks.cjs …`) to see where a run's young generation
// goes (issue 48): V8's new-space use at each file read, each vm.Script compiled, the request's start and
// response, and the exit, written at exit to BENCH_YOUNG_MARKS_FILE (else stderr) as "KB in use, KB since the
// last mark, the mark". A program can mark steps of its own with globalThis.__youngMark?.('name'). The marks'
// own allocation (~2 KB each, measured at start) is subtracted. Run it with a young generation too large to be
// collected (the flag above), or a collection in the middle makes the figures meaningless.
'use strict';
const v8 = require('node:v8');
const fs = require('node:fs');
const NEW_SPACE = v8.getHeapSpaceStatistics().findIndex((space) => space.space_name === 'new_space');
const used = () => v8.getHeapSpaceStatistics()[NEW_SPACE].space_used_size;
const marks = [];
const mark = (name) => marks.push(name, used());
mark('calibration');
mark('calibration');
const own = marks[3] - marks[1];
globalThis.__youngMark = mark;
mark('preloaded');
const channels = require('node:diagnostics_channel');
channels.subscribe('http.client.request.start', () => mark('the request starts'));
channels.subscribe('http.client.response.finish', () => mark('its response is read'));
const vm = require('node:vm');
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    mark(`vm.Script of ${options?.filename ?? 'a script'}`);
    super(code, options);
    mark('compiled');
  }
};
const readFileSync = fs.readFileSync;
fs.readFileSync = function watched(path, ...rest) {
  mark(`readFileSync ${String(path).replace(/.*\//, '')}`);
  const read = readFileSync.call(this, path, ...rest);
  mark('read');
  return read;
};
process.on('exit', () => {
  mark('exit');
  const lines = [];
  for (let i = 4; i < marks.length; i += 2) {
    const since = (marks[i + 1] - marks[i - 1] - own) / 1024;
    lines.push(`${(marks[i + 1] / 1024).toFixed(1).padStart(8)} ${since.toFixed(1).padStart(7)}  ${marks[i]}`);
  }
  const text = `${lines.join('\n')}\n`;
  if (process.env.BENCH_YOUNG_MARKS_FILE) fs.writeFileSync(process.env.BENCH_YOUNG_MARKS_FILE, text);
  else process.stderr.write(text);
});
