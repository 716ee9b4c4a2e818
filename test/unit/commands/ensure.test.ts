/** `ensure` is wiring: a command line parses into EnsureCommandOptions, and nothing is opened until they run. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Context } from '../../../src/commands/context.js';
import { ensureCommand, type EnsureCommandOptions } from '../../../src/commands/ensure.js';
import { USDT_MAINNET } from '../../../src/tron/tokens.js';

const A = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const B = 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY';

async function parse(args: string[]): Promise<EnsureCommandOptions> {
  const ctx = new Context({ stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), env: {} });
  let seen: EnsureCommandOptions | undefined;
  const command = ensureCommand(ctx, async (options) => {
    seen = options;
  }).exitOverride();
  await command.parseAsync(args, { from: 'user' });
  return seen!;
}

describe('ensure parses into EnsureCommandOptions', () => {
  it.each([
    {
      args: [A, B, A, '--energy', '65000', '--hours', '1'],
      run: { addresses: [A, B], energy: 65_000, transfers: undefined, toleranceBp: 100, yes: false, dryRun: false },
      everyMs: undefined,
    },
    {
      args: [A, '--transfers', '3', '--hours', '1', '--tolerance', '0.5%', '--yes', '--max-total', '20'],
      run: {
        energy: undefined,
        transfers: { count: 3, token: USDT_MAINNET, to: undefined },
        toleranceBp: 50,
        yes: true,
        maxTotal: '20.000000',
      },
      everyMs: undefined,
    },
    {
      args: [A, '--energy', '65000', '--hours', '1', '--wait', '--wait-timeout', '2m', '--place-what-fits'],
      run: { waitSeconds: 120, placeWhatFits: true },
      everyMs: undefined,
    },
    {
      args: [
        A,
        '--energy',
        '65000',
        '--hours',
        '1',
        '--every',
        '5m',
        '--metrics',
        '9464',
        '--min-balance',
        '50',
        '--on-event',
        'notify-send x',
      ],
      run: {},
      everyMs: 300_000,
      watch: { metrics: { host: '127.0.0.1', port: 9464 }, minBalance: '50.000000', onEvent: 'notify-send x' },
    },
  ])('$args', async ({ args, run, everyMs, watch }) => {
    const options = await parse(args);
    expect(options.run).toMatchObject(run);
    expect(options.everyMs).toBe(everyMs);
    expect(options.watch).toMatchObject(watch ?? { metrics: undefined, minBalance: undefined, onEvent: undefined });
  });

  it.each([
    ['--metrics', '9464'],
    ['--min-balance', '5'],
    ['--on-event', 'true'],
  ])('%s without --every is exit 2: it watches a running service', async (flag, value) => {
    await expect(parse([A, '--energy', '65000', '--hours', '1', flag, value])).rejects.toMatchObject({
      exitCode: 2,
      message: `${flag} goes with --every: it watches a running service`,
    });
  });

  it('--metrics takes a port or host:port only', async () => {
    await expect(parse([A, '--energy', '1', '--hours', '1', '--every', '1m', '--metrics', 'http://x'])).rejects.toThrow(
      /must be a port, or host:port/,
    );
  });

  it('--max-spend takes <trx>/<duration>: 50/24h is 50.000000 TRX over 86,400,000 ms; anything else is refused', async () => {
    const options = await parse([A, '--energy', '1', '--hours', '1', '--max-spend', '50/24h']);
    expect(options.run.ceiling).toEqual({ trx: '50.000000', windowMs: 86_400_000, text: '50/24h' });
    const half = await parse([A, '--energy', '1', '--hours', '1', '--max-spend', '7.5/1h']);
    expect(half.run.ceiling).toEqual({ trx: '7.500000', windowMs: 3_600_000, text: '7.5/1h' });
    for (const [value, why] of [
      ['50', /must be <trx>\/<duration>/],
      ['0/1h', /above 0/],
      ['50/400d', /at most 366d/],
      ['50/soon', /such as 1h/],
      ['x/1h', /not a TRX amount/],
      ['10/1ms', /the window must be at least 1m/],
      ['10/59s', /the window must be at least 1m/],
    ] as const) {
      await expect(parse([A, '--energy', '1', '--hours', '1', '--max-spend', value])).rejects.toThrow(why);
    }
  });

  it('--budget names the ledger of --max-spend; alone, or with a window shorter than --every, it is refused', async () => {
    const options = await parse([A, '--energy', '1', '--hours', '1', '--max-spend', '8/1m', '--budget', 'pay-outs.1']);
    expect(options.run.ceiling).toEqual({ trx: '8.000000', windowMs: 60_000, text: '8/1m', budget: 'pay-outs.1' });
    await expect(parse([A, '--energy', '1', '--hours', '1', '--budget', 'payouts'])).rejects.toThrow(
      '--budget names the ledger of --max-spend: give both',
    );
    await expect(parse([A, '--energy', '1', '--hours', '1', '--max-spend', '8/1m', '--budget', '-x'])).rejects.toThrow(
      /use letters, digits/,
    );
    await expect(parse([A, '--energy', '1', '--hours', '1', '--max-spend', '8/1m', '--every', '2m'])).rejects.toThrow(
      '--max-spend 8/1m: its window is shorter than --every, so it bounds nothing',
    );
    const same = await parse([A, '--energy', '1', '--hours', '1', '--max-spend', '8/2m', '--every', '2m']);
    expect(same.run.ceiling?.windowMs).toBe(120_000);
  });

  it('opens no node, client or journal while parsing', async () => {
    const options = await parse([A, '--energy', '65000', '--hours', '1']);
    // The env has no base URL: asking for the client now would fail; parsing never asked.
    await expect(options.client()).rejects.toMatchObject({ exitCode: 2 });
  });
});
