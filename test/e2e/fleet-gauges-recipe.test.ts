/**
 * docs/fleet.md's alert rules for a fleet's per-address gauges, run as written by promtool (issue 44 item 7):
 * an address whose series move from one host to another (each exports what it decided last) is no gap and no
 * alert; one short whichever host decides it fires; one no host decides any more fires.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { describeWhere, hasCommand } from '../helpers/machine-needs.js';

/** The rules of the manual's yaml block under "Gauges across a fleet", as a rules file. */
function manualRules(): string {
  const manual = readFileSync(fileURLToPath(new URL('../../docs/fleet.md', import.meta.url)), 'utf8');
  const section = manual.slice(manual.indexOf('## Gauges across a fleet'));
  const block = /```yml\n([\s\S]*?)```/.exec(section)![1]!;
  const indented = block
    .split('\n')
    .map((line) => (line === '' ? '' : `      ${line}`))
    .join('\n');
  return `groups:\n  - name: energy-fleet\n    rules:\n${indented}\n`;
}

const CASES = `rule_files:
  - rules.yml
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      # X: host a decides it for 10 minutes, then host b (a drops its series): supplied throughout.
      - series: 'energy_address_target_energy{instance="a:9464",address="X"}'
        values: '65000x9 stale'
      - series: 'energy_address_available_energy{instance="a:9464",address="X"}'
        values: '70000x9 stale'
      - series: 'energy_address_in_flight_energy{instance="a:9464",address="X"}'
        values: '0x9 stale'
      - series: 'energy_address_target_energy{instance="b:9464",address="X"}'
        values: '_x10 65000x50'
      - series: 'energy_address_available_energy{instance="b:9464",address="X"}'
        values: '_x10 70000x50'
      - series: 'energy_address_in_flight_energy{instance="b:9464",address="X"}'
        values: '_x10 0x50'
      # Y: short on host a, then on host b, never supplied.
      - series: 'energy_address_target_energy{instance="a:9464",address="Y"}'
        values: '65000x9 stale'
      - series: 'energy_address_available_energy{instance="a:9464",address="Y"}'
        values: '0x9 stale'
      - series: 'energy_address_in_flight_energy{instance="a:9464",address="Y"}'
        values: '0x9 stale'
      - series: 'energy_address_target_energy{instance="b:9464",address="Y"}'
        values: '_x10 65000x50'
      - series: 'energy_address_available_energy{instance="b:9464",address="Y"}'
        values: '_x10 0x50'
      - series: 'energy_address_in_flight_energy{instance="b:9464",address="Y"}'
        values: '_x10 0x50'
      # Z: decided by host a for 10 minutes, then by no host.
      - series: 'energy_address_target_energy{instance="a:9464",address="Z"}'
        values: '65000x9 stale'
      - series: 'energy_address_available_energy{instance="a:9464",address="Z"}'
        values: '70000x9 stale'
      - series: 'energy_address_in_flight_energy{instance="a:9464",address="Z"}'
        values: '0x9 stale'
    alert_rule_test:
      - eval_time: 20m
        alertname: EnergyAddressShort
        exp_alerts:
          - exp_labels: { address: Y }
      - eval_time: 20m
        alertname: EnergyAddressUndecided
        exp_alerts: []
      - eval_time: 30m
        alertname: EnergyAddressUndecided
        exp_alerts:
          - exp_labels: { address: Z }
`;

describeWhere('promtool', hasCommand('promtool', ['--version']), "docs/fleet.md's alerts across a fleet", () => {
  it('promtool checks the rules and runs them on a handover, a short address and an undecided one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'energy-fleet-rules-'));
    writeFileSync(join(dir, 'rules.yml'), manualRules());
    writeFileSync(join(dir, 'cases.yml'), CASES);
    const check = spawnSync('promtool', ['check', 'rules', 'rules.yml'], { cwd: dir, encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const test = spawnSync('promtool', ['test', 'rules', 'cases.yml'], { cwd: dir, encoding: 'utf8' });
    expect(test.status, test.stdout + test.stderr).toBe(0);
  });
});
