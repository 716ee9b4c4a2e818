// Preloaded with --import: writes the process's peak resident set size (KiB) to $BENCH_RSS_FILE at exit.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  if (process.env.BENCH_RSS_FILE) writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS));
});
