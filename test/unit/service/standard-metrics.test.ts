/**
 * The standard series beside the service's own: build, process start and memory, the last cycle's
 * duration, failures in a row, and the last success from the service's start. Values worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { Metrics } from '../../../src/service/metrics.js';
import { ServiceMetrics } from '../../../src/service/service-metrics.js';
import { StandardMetrics } from '../../../src/service/standard-metrics.js';

/** 2026-11-25 10:00:00 UTC */
const START = Date.UTC(2026, 10, 25, 10);

function standard() {
  const registry = new Metrics();
  let rss = 52_428_800;
  const metrics = new StandardMetrics(registry, {
    version: '0.1.0',
    startedAtMs: START + 0.75,
    residentBytes: () => rss,
  });
  const lines = () => {
    metrics.refresh();
    return registry
      .render()
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
  };
  return { metrics, lines, setRss: (bytes: number) => (rss = bytes) };
}

describe('StandardMetrics', () => {
  it('at the start: build info 1 with the version, the start time in seconds, memory, 0 failures, no duration yet', () => {
    const { lines } = standard();
    expect(lines()).toEqual([
      'energy_build_info{version="0.1.0"} 1',
      'process_start_time_seconds 1795600800.000',
      'process_resident_memory_bytes 52428800',
      'energy_ensure_failures_in_a_row 0',
    ]);
  });

  it('the last cycle took 2.5 s; failures counted in a row and reset by a success; memory read at each scrape', () => {
    const { metrics, lines, setRss } = standard();
    metrics.cycleEnded(false, START + 1_000, START + 3_500);
    metrics.cycleEnded(false, START + 61_000, START + 61_250);
    setRss(60_000_000);
    expect(lines()).toEqual([
      'energy_build_info{version="0.1.0"} 1',
      'process_start_time_seconds 1795600800.000',
      'process_resident_memory_bytes 60000000',
      'energy_ensure_last_cycle_duration_seconds 0.250',
      'energy_ensure_failures_in_a_row 2',
    ]);
    metrics.cycleEnded(true, START + 121_000, START + 123_500);
    expect(lines()).toContain('energy_ensure_failures_in_a_row 0');
    expect(lines()).toContain('energy_ensure_last_cycle_duration_seconds 2.500');
  });
});

describe('ServiceMetrics from the start', () => {
  it('the last success reads the start until a first success; cycles are labelled by result, as orders are', () => {
    const metrics = new ServiceMetrics(START);
    const text = metrics.render();
    expect(text).toContain('energy_ensure_last_success_timestamp_seconds 1795600800.000\n');
    expect(text).toContain('energy_ensure_cycles_total{result="ok"} 0\n');
    expect(text).toContain('energy_ensure_cycles_total{result="failed"} 0\n');
    metrics.cycleEnded([], true, START + 60_000);
    expect(metrics.render()).toContain('energy_ensure_last_success_timestamp_seconds 1795600800.000\n');
    expect(metrics.render()).toContain('energy_ensure_cycles_total{result="failed"} 1\n');
    metrics.cycleEnded([], false, START + 120_000);
    expect(metrics.render()).toContain('energy_ensure_last_success_timestamp_seconds 1795600920.000\n');
    expect(metrics.render()).toContain('energy_ensure_cycles_total{result="ok"} 1\n');
  });
});
