/**
 * Failures that stay local (issue 45): a service over three wallets, one of which holds no USDT (its transfer
 * reverts), keeps its cycles ok, raises address_failed once for that wallet alone, answers /readyz 200, and
 * its per-address gauge, as scraped, makes the EnergyAddressFailing rule fire in promtool for that wallet
 * only. Counted at the service's own outputs (cycles, events, scrape) and at the sandbox (no order).
 */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { freshAddress, httpGet, until } from '../helpers/e2e.js';
import { describeWhere, hasCommand } from '../helpers/machine-needs.js';
import { repoRoot } from '../helpers/manual.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { watchedServices } from '../helpers/watched-service.js';

const world = worldForSuite({ rateLimit: false });

/** A promtool test of the shipped rules, its input series the scraped per-address gauges held for 10 minutes. */
function promtoolCase(scrape: string, failing: string): string {
  const series = [...scrape.matchAll(/^energy_address_failing\{address="(T\w+)"\} ([01])$/gm)].map(
    ([, address, value]) =>
      `      - series: 'energy_address_failing{job="energy-ensure",instance="host:9464",address="${address}"}'\n        values: '${value}x10'`,
  );
  expect(series).toHaveLength(3);
  return [
    'rule_files:',
    '  - energy-alerts.yml',
    'evaluation_interval: 1m',
    'tests:',
    '  - interval: 1m',
    '    input_series:',
    ...series,
    '    alert_rule_test:',
    '      - eval_time: 7m',
    '        alertname: EnergyAddressFailing',
    '        exp_alerts:',
    `          - exp_labels: { severity: warning, job: energy-ensure, instance: 'host:9464', address: ${failing} }`,
    '            exp_annotations:',
    `              summary: ${failing} cannot be supplied (host:9464)`,
    "              description: The address has failed for 5 minutes for a reason of its own; the service's log has its address_failed line (why), and address_recovered once it stands again.",
    '',
  ].join('\n');
}

describeWhere('promtool', hasCommand('promtool', ['--version']), 'a wallet without tokens beside two good ones', () => {
  it('ok cycles, one address_failed, /readyz 200, and its own alert firing from a real scrape', async () => {
    const [good1, good2, empty] = [freshAddress(45_201), freshAddress(45_202), freshAddress(45_203)];
    for (const address of [good1, good2]) world.sandbox.seedTronAccount(address, { energy: 200_000, usdt: 5_000_000n });
    world.sandbox.seedTronAccount(empty, { energy: 200_000 });
    const { events, spawnWithMetrics } = watchedServices(
      world,
      { ENERGY_TRON_NODE: world.sandbox.url },
      'energy-local-',
    );
    const args = ['ensure', good1, good2, empty, '--transfers', '1', '--to', good1, '--hours', '1'];
    const { running, url } = await spawnWithMetrics([...args, '--every', '200ms', '--json']);
    const cycles = () =>
      running
        .output()
        .stdout.split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { error?: unknown; items: { address: string; reason: string }[] });
    await until('five cycles', () => cycles().length >= 5 || undefined, 30_000);
    const scrape = (await httpGet(`${url}/metrics`)).body;
    const ready = await httpGet(`${url}/readyz`);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);

    expect(ready.status, ready.body).toBe(200);
    const seen = cycles();
    expect(seen.every((cycle) => cycle.error === undefined)).toBe(true);
    for (const cycle of seen) {
      expect(cycle.items.map((item) => item.reason)).toEqual(['enough', 'enough', 'failed']);
    }
    expect(scrape).toMatch(/\nenergy_ensure_cycles_total\{result="ok"\} [5-9]\d*\n/);
    expect(scrape).toContain('\nenergy_ensure_cycles_total{result="failed"} 0\n');
    expect(scrape).toContain(`\nenergy_address_failing{address="${empty}"} 1\n`);
    expect(scrape).toContain(`\nenergy_address_failing{address="${good1}"} 0\n`);
    const raised = events().filter((event) => event.event.startsWith('address_'));
    expect(raised).toEqual([expect.objectContaining({ event: 'address_failed', address: empty })]);
    expect(world.sandbox.orders().filter((order) => [good1, good2, empty].includes(order.address))).toHaveLength(0);

    const dir = mkdtempSync(join(tmpdir(), 'energy-rules-'));
    copyFileSync(join(repoRoot, 'deploy', 'prometheus', 'energy-alerts.yml'), join(dir, 'energy-alerts.yml'));
    writeFileSync(join(dir, 'scraped.test.yml'), promtoolCase(scrape, empty));
    const promtool = spawnSync('promtool', ['test', 'rules', 'scraped.test.yml'], { cwd: dir, encoding: 'utf8' });
    expect(promtool.status, promtool.stdout + promtool.stderr).toBe(0);
  }, 60_000);
});
