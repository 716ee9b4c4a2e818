/**
 * `ensure --file <path>` and `--file -` (issue 47 item 5): the addresses one a line, with comments, blank lines,
 * CRLF and a byte order mark as tools write them; a bad line refused before anything is read (exit 2); a service
 * reads its file again each cycle, so that an address added or removed takes effect without a restart. Orders
 * are counted at the sandbox.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { freshAddress, until, serviceCycles as cyclesOf } from '../helpers/e2e.js';
import { tempDirForSuite, worldForSuite } from '../helpers/suite-world.js';
import { json } from '../helpers/world.js';

const world = worldForSuite({ rateLimit: false, deliverAfterMs: 3_600_000 });
const dir = tempDirForSuite('energy-ensure-file-');
const target = ['--energy', '65000', '--hours', '1'];
/** The world's CLI with the sandbox as its TRON node. */
const node = () => ({ ENERGY_TRON_NODE: world.sandbox.url });
const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);
const addressesOf = (result: CliResult) => json<{ items: { address: string }[] }>(result).items.map((i) => i.address);

it('reads one address a line, comments, blank lines, CRLF and a BOM as tools write them, after the arguments', async () => {
  const [a, b, c] = [freshAddress(47_501), freshAddress(47_502), freshAddress(47_503)];
  const file = join(dir.path, 'list.txt');
  writeFileSync(file, `\uFEFF# payouts\r\n${b}\r\n\r\n  ${c}   # the hot wallet\r\n${a}\r\n`);
  const result = await world.run(['ensure', a, '--file', file, ...target, '--yes', '--json'], { env: node() });
  expect(result.code, result.stderr).toBe(0);
  // The argument first, then the file's lines in order; A once.
  expect(addressesOf(result)).toEqual([a, b, c]);
  expect([ordersTo(a).length, ordersTo(b).length, ordersTo(c).length]).toEqual([1, 1, 1]);
});

it('--file - reads standard input', async () => {
  const [d, e] = [freshAddress(47_511), freshAddress(47_512)];
  const result = await world.run(['ensure', '--file', '-', ...target, '--yes', '--json'], {
    input: `${d}\n${e}\n`,
    env: node(),
  });
  expect(result.code, result.stderr).toBe(0);
  expect(addressesOf(result)).toEqual([d, e]);
  expect([ordersTo(d).length, ordersTo(e).length]).toEqual([1, 1]);
});

it('a bad line is exit 2 naming it, before anything is read or bought; no addresses at all is exit 2 too', async () => {
  const f = freshAddress(47_521);
  const file = join(dir.path, 'bad.txt');
  writeFileSync(file, `${f}\nTnotanaddress\n`);
  const requests = world.sandbox.requestCount();
  const bad = await world.run(['ensure', '--file', file, ...target, '--yes'], { env: node() });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain(`${file}: line 2: Tnotanaddress is not a TRON address`);
  expect(world.sandbox.requestCount()).toBe(requests);
  const missing = await world.run(['ensure', '--file', join(dir.path, 'none.txt'), ...target, '--yes'], {
    env: node(),
  });
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain('cannot be read (ENOENT)');
  const none = await world.run(['ensure', ...target, '--yes'], { env: node() });
  expect(none.code).toBe(2);
  expect(none.stderr).toContain('give the addresses to keep supplied');
  expect(ordersTo(f)).toHaveLength(0);
});

it('a service reads its file again each cycle: an address added is bought, one removed is no longer read', async () => {
  const [g, h] = [freshAddress(47_531), freshAddress(47_532)];
  const file = join(dir.path, 'service.txt');
  writeFileSync(file, `${g}\n`);
  const service = world.spawn(['ensure', '--file', file, ...target, '--yes', '--json', '--every', '1s'], {
    env: node(),
  });
  onTestFinished(() => void service.child.kill('SIGKILL'));
  await until('G bought', () => ordersTo(g).length === 1, 20_000);
  writeFileSync(file, `# G moved to another wallet\n${h}\n`);
  await until('H bought', () => ordersTo(h).length === 1, 20_000);
  const since = cyclesOf(service).length;
  await until('a cycle ended since', () => cyclesOf(service).length > since);
  expect(
    cyclesOf(service)
      .at(-1)!
      .items.map((item) => item.address),
  ).toEqual([h]);
  // A bad line written meanwhile: said, and the service keeps the list it had.
  writeFileSync(file, `${h}\nnot-an-address\n`);
  await until('the bad line said', () => service.output().stderr.includes('line 2: not-an-address'), 20_000);
  expect(service.output().stderr).toContain('keeping the 1 address(es) read before');
  service.child.kill('SIGTERM');
  expect((await service.result).code).toBe(0);
  expect([ordersTo(g).length, ordersTo(h).length]).toEqual([1, 1]);
}, 60_000);
