// Preloaded (`node -r`) by startup.mjs, with a young generation too large to be collected in one run
// (--min-semi-space-size): writes to BENCH_YOUNG_FILE, at exit, how many KB the run allocated in V8's young
// generation (new space). A collection (a scavenge, ~1 ms of CPU) comes once about 80 % of the young generation
// (1 MiB at start) is in use: what a run allocates there decides whether it pays one.
'use strict';
process.on('exit', () => {
  const young = require('node:v8')
    .getHeapSpaceStatistics()
    .find((space) => space.space_name === 'new_space');
  require('node:fs').writeFileSync(process.env.BENCH_YOUNG_FILE, String(Math.round(young.space_used_size / 1024)));
});
