/** `order create` is wiring: a command line parses into options, and nothing is opened until they run. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Context } from '../../../src/commands/context.js';
import { orderCreateCommand, type CreateCommandOptions } from '../../../src/commands/order-create.js';

const ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

async function parse(args: string[]): Promise<{ options: CreateCommandOptions; ctx: Context }> {
  const ctx = new Context({ stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), env: {} });
  let seen: CreateCommandOptions | undefined;
  const command = orderCreateCommand(ctx, async (options) => {
    seen = options;
  });
  await command.parseAsync([ADDRESS, '--energy', '65000', '--hours', '1', ...args], { from: 'user' });
  return { options: seen!, ctx };
}

describe('order create parses into CreateCommandOptions', () => {
  it.each([
    { args: ['--yes'], request: { yes: true }, waitSeconds: undefined },
    {
      args: ['--expected-total', '3.700000'],
      request: { yes: false, expectedTotal: '3.700000' },
      waitSeconds: undefined,
    },
    { args: ['--max-total', '5.000000', '-y'], request: { yes: true, maxTotal: '5.000000' }, waitSeconds: undefined },
    { args: ['--client-request-id', 'job-7', '--wait'], request: { clientRequestId: 'job-7' }, waitSeconds: 600 },
    { args: ['--wait', '--wait-timeout', '30'], request: {}, waitSeconds: 30 },
    { args: ['--wait-timeout', '30'], request: {}, waitSeconds: undefined },
  ])('$args', async ({ args, request, waitSeconds }) => {
    const { options } = await parse(args);
    expect(options.request).toMatchObject({ address: ADDRESS, energy: 65000, hours: 1, ...request });
    expect(options.waitSeconds).toBe(waitSeconds);
  });

  it('opens no client, journal or config file while parsing', async () => {
    const { options } = await parse(['--yes']);
    // The env has no base URL: asking for the client now would fail; parsing never asked.
    await expect(options.client()).rejects.toMatchObject({ exitCode: 2 });
  });
});
