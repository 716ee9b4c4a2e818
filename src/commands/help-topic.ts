/**
 * The help topics as commands: `energy help <topic>` (and the unlisted `energy <topic>`) prints the topic,
 * with --json as data. The texts are loaded only then (dist/bin/topics.cjs), never at a command's start.
 */
import { Command } from 'commander';
import type { HelpTopic } from '../help/topic-names.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export interface HelpTopicCommandOptions extends Pick<CommandServices, 'printer'> {
  topic: HelpTopic;
}

/** The topic's command, made for the program's context as every other command is (program.ts). */
export function helpTopicCommand(
  topic: HelpTopic,
  summary: string,
  run: (options: HelpTopicCommandOptions) => Promise<void> = helpTopicRun,
): (ctx: Context) => Command {
  return (ctx) => new Command(topic).description(summary).action(() => run({ topic, ...ctx.services() }));
}

export async function helpTopicRun(opts: HelpTopicCommandOptions): Promise<void> {
  const { topicText, topicJson } = await import('../help/topics.js');
  await (opts.printer.jsonMode ? opts.printer.json(topicJson(opts.topic)) : opts.printer.write(topicText(opts.topic)));
}
