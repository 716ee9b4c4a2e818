/** The Prometheus text exposition, written by hand: exact values, escaped labels, HELP and TYPE once each. */
import { describe, expect, it } from 'vitest';
import { Metrics } from '../../../src/service/metrics.js';

describe('Metrics', () => {
  it('renders families with HELP and TYPE, their series, and sums decimal amounts exactly', () => {
    const m = new Metrics();
    m.counter('energy_spent_trx_total', 'TRX spent.');
    m.gauge('energy_available_energy', 'Energy.');
    m.add('energy_spent_trx_total', {}, '0.100000');
    m.add('energy_spent_trx_total', {}, '0.200000');
    m.set('energy_available_energy', { address: 'TA' }, '65000');
    m.set('energy_available_energy', { address: 'TB' }, '0');
    expect(m.render()).toBe(
      [
        '# HELP energy_spent_trx_total TRX spent.',
        '# TYPE energy_spent_trx_total counter',
        // 0.1 + 0.2 in floats is 0.30000000000000004; TRX keeps its six digits.
        'energy_spent_trx_total 0.300000',
        '# HELP energy_available_energy Energy.',
        '# TYPE energy_available_energy gauge',
        'energy_available_energy{address="TA"} 65000',
        'energy_available_energy{address="TB"} 0',
        '',
      ].join('\n'),
    );
  });

  it('escapes a label value and HELP text as the format says', () => {
    const m = new Metrics();
    m.gauge('g', 'a \\ back\nslash');
    m.set('g', { label: 'q"uote\\back\nline' }, '1');
    expect(m.render()).toBe('# HELP g a \\\\ back\\nslash\n# TYPE g gauge\ng{label="q\\"uote\\\\back\\nline"} 1\n');
  });

  it('leaves out a family with no series, and drops a series on request', () => {
    const m = new Metrics();
    m.gauge('g', 'G.');
    m.set('g', { a: '1' }, '2');
    m.drop('g', { a: '1' });
    expect(m.render()).toBe('\n');
  });

  it('refuses what the format or a counter cannot hold', () => {
    const m = new Metrics();
    expect(() => m.counter('orders', 'x')).toThrow(/_total/);
    expect(() => m.gauge('bad-name', 'x')).toThrow(/not a metric name/);
    m.counter('c_total', 'C.');
    expect(() => m.add('c_total', {}, '-1')).toThrow(/only goes up/);
    expect(() => m.set('c_total', {}, '1')).toThrow(/no gauge/);
  });
});
