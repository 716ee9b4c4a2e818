// Preloaded (`node -r`) by startup.mjs's breakdown runs, never by the timed ones: the process's CPU time
// (user + system, process.cpuUsage) at the first of each step of a run, written as JSON to
// BENCH_PHASES_FILE at exit. The steps are seen from outside the program, the same way for `energy` and the
// bare GET: the first touch of the config folder (the profile), the first read of the clock offset file,
// the request's start and its response (node:http's diagnostics channels), the first write to stdout.
'use strict';
const fs = require('node:fs');
const channels = require('node:diagnostics_channel');

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const marks = { start: cpuMs() };
const mark = (name) => {
  if (!(name in marks)) marks[name] = cpuMs();
};
const configDir = process.env.ENERGY_CONFIG_DIR;
const watch = (name) => {
  const original = fs[name];
  fs[name] = function watched(path, ...rest) {
    if (typeof path === 'string') {
      if (configDir !== undefined && path.startsWith(configDir))
        mark(path.endsWith('.json') && !path.endsWith('config.json') ? 'offset' : 'settings');
    } else if (name === 'writeSync' && path === 1) mark('output');
    return original.call(this, path, ...rest);
  };
};
for (const name of ['readFileSync', 'openSync', 'statSync', 'lstatSync', 'existsSync', 'writeSync']) watch(name);
channels.subscribe('http.client.request.start', () => mark('request'));
channels.subscribe('http.client.response.finish', () => mark('response'));
process.on('exit', () => {
  marks.exit = cpuMs();
  fs.writeFileSync(process.env.BENCH_PHASES_FILE, JSON.stringify(marks));
});
