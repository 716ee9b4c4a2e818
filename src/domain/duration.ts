/**
 * A duration written back in the syntax the duration options take (`--timeout 1` → `1s`, `--wait-timeout
 * 10m` → `10m`), so that a message names the value as the user would type it.
 */
export function formatDuration(ms: number): string {
  const whole = Math.round(ms);
  if (whole < 1000) return `${whole}ms`;
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
  ] as const) {
    if (whole % size === 0) return `${whole / size}${unit}`;
  }
  return `${Number((whole / 1000).toFixed(3))}s`;
}
