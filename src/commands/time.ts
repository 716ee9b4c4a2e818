import { Command } from 'commander';
import { describeOffset } from '../client/clock.js';
import { formatSeconds, formatTimestamp } from '../output/format.js';
import type { Context } from './context.js';

export function timeCommand(ctx: Context): Command {
  return new Command('time')
    .description("show the server clock and the local clock's skew against it")
    .action(() => showTime(ctx));
}

/** The command's work, also run without commander by the light bundle (app/light-main.ts). */
export async function showTime(ctx: Context): Promise<void> {
  // Also remembers (or forgets) the offset, so that the next signed request uses the server's clock.
  const check = await (await ctx.client()).checkClock();
  if (ctx.printer.jsonMode) {
    await ctx.printer.json({
      unix_time: check.unix_time,
      local_unix_time: check.local_unix_time,
      skew_seconds: check.skew_seconds,
    });
    return;
  }
  await ctx.printer.keyValue([
    ['Server time', `${formatTimestamp(check.unix_time)} (${check.unix_time})`],
    ['Local time', `${formatTimestamp(check.local_unix_time)} (${check.local_unix_time})`],
    ['Skew', `${formatSeconds(check.skew_seconds)}: ${describeOffset(check.skew_seconds)}`],
    ['Signing offset', formatSeconds(check.signing_offset_seconds)],
  ]);
}
