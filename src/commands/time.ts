import { Command } from 'commander';
import { describeOffset, measureOffsetSeconds } from '../client/clock.js';
import { formatSeconds, formatTimestamp } from '../output/format.js';
import type { Context } from './context.js';

export function timeCommand(ctx: Context): Command {
  return new Command('time')
    .description("show the server clock and the local clock's skew against it")
    .action(async () => {
      const client = await ctx.client();
      const sentAt = Date.now();
      const time = await client.time();
      const receivedAt = Date.now();
      const skew = measureOffsetSeconds(time.unix_time, sentAt, receivedAt);
      // Remember (or forget) the offset, so that the next signed request uses the server's clock.
      client.transport.clock.adopt(time.unix_time, sentAt, receivedAt);
      const localUnixTime = Math.floor(receivedAt / 1000);
      if (ctx.printer.jsonMode) {
        await ctx.printer.json({ unix_time: time.unix_time, local_unix_time: localUnixTime, skew_seconds: skew });
        return;
      }
      await ctx.printer.keyValue([
        ['Server time', `${formatTimestamp(time.unix_time)} (${time.unix_time})`],
        ['Local time', `${formatTimestamp(localUnixTime)} (${localUnixTime})`],
        ['Skew', `${formatSeconds(skew)}: ${describeOffset(skew)}`],
        ['Signing offset', formatSeconds(client.transport.clock.offsetSeconds)],
      ]);
    });
}
