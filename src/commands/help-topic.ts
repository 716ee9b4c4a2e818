/**
 * The help topics as commands: `energy help <topic>` (and the unlisted `energy <topic>`) prints the topic,
 * with --json as data. The texts are loaded only then (dist/bin/topics.cjs), never at a command's start.
 */
import { Command } from 'commander';
import type { HelpTopic } from '../help/topic-names.js';
import type { Context } from './context.js';

export function helpTopicCommand(topic: HelpTopic, summary: string): (ctx: Context) => Command {
  return (ctx) =>
    new Command(topic).description(summary).action(async () => {
      const { topicText, topicJson } = await import('../help/topics.js');
      if (ctx.printer.jsonMode) await ctx.printer.json(topicJson(topic));
      else await ctx.printer.write(topicText(topic));
    });
}
