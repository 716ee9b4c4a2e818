import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/domain/errors.js';
import { Printer } from '../../../src/output/printer.js';
import { streamOrdersJson, streamOrdersTable } from '../../../src/output/order-stream.js';
import { pagingServer, scriptedApiForSuite } from '../../helpers/scripted-api.js';

const api = scriptedApiForSuite();

function capture(): { printer: Printer; text: () => string } {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return {
    printer: new Printer(
      { stdout, stderr: new PassThrough(), stdin: Readable.from([]), env: { NO_COLOR: '1' } },
      false,
    ),
    text: () => text,
  };
}

describe('EnergyClient.orderPages with pageSizes', () => {
  it('keeps the first size the server accepts', async () => {
    api.server.script(pagingServer(2500, 1000));
    const pages = [];
    for await (const page of api.client().orderPages({ pageSizes: [1000, 100, undefined] }))
      pages.push(page.items.length);
    expect(pages).toEqual([1000, 1000, 500]);
    expect(api.limits()).toEqual(['1000', '1000', '1000']);
  });

  it('steps down on 400 and keeps the size that worked', async () => {
    api.server.script(pagingServer(250, 100));
    const pages = [];
    for await (const page of api.client().orderPages({ pageSizes: [1000, 100, undefined] }))
      pages.push(page.items.length);
    expect(pages).toEqual([100, 100, 50]);
    expect(api.limits()).toEqual(['1000', '100', '100', '100']);
  });

  it('ends at the server default when every size is refused', async () => {
    api.server.script(pagingServer(30, 10));
    const pages = [];
    for await (const page of api.client().orderPages({ pageSizes: [1000, 100, undefined] }))
      pages.push(page.items.length);
    // No limit sent: this server's default (20) is above its own maximum, as a server may well have it.
    expect(api.limits()).toEqual(['1000', '100', null, null]);
    expect(pages).toEqual([20, 10]);
  });

  it('uses an explicit limit as is, and a 400 for it is the answer', async () => {
    api.server.script(pagingServer(30, 10));
    await expect(async () => {
      for await (const _page of api.client().orderPages({ limit: 50, pageSizes: [1000, 100, undefined] })) void _page;
    }).rejects.toMatchObject({ exitCode: ExitCode.usage });
    expect(api.limits()).toEqual(['50']);
  });
});

describe('stopping order list --all from outside', () => {
  it('closes the JSON document with the cursor of the first page not read, and asks for no more pages', async () => {
    api.server.script(pagingServer(500, 100));
    const stop = new AbortController();
    const { printer, text } = capture();
    const pages = api.client().orderPages({ pageSizes: [100], signal: stop.signal });
    const progress = { resumeCursor: null, ordersWritten: 0, stop: stop.signal };
    async function* stopAfterTwo() {
      let n = 0;
      for await (const page of pages) {
        yield page;
        if (++n === 2) stop.abort();
      }
    }
    const complete = await streamOrdersJson(printer, stopAfterTwo(), progress);
    expect(complete).toBe(false);
    const document = JSON.parse(text()) as { items: unknown[]; next_cursor: string | null };
    expect(document.items).toHaveLength(200);
    expect(document.next_cursor).toBe('c200');
    expect(api.server.seen).toHaveLength(2);
  });

  it('reports a complete listing when not stopped, and the table has one header', async () => {
    api.server.script(pagingServer(250, 100));
    const { printer, text } = capture();
    const complete = await streamOrdersTable(printer, api.client().orderPages({ pageSizes: [100] }), {
      resumeCursor: null,
      ordersWritten: 0,
    });
    expect(complete).toBe(true);
    const lines = text().trimEnd().split('\n');
    expect(lines).toHaveLength(251);
    expect(lines.filter((line) => line.startsWith('ID '))).toHaveLength(1);
  });
});
