/**
 * The help topics' texts and their JSON form, for `energy help <topic>`: parts of the manual's pages
 * (doc-topics.ts). Bundled as dist/bin/topics.cjs, which carries the texts as the build read them, and
 * required only by `energy help <topic>`.
 */
import { readTopics, type TopicData } from './doc-topics.js';
import type { HelpTopic } from './topic-names.js';

let topics: Readonly<Record<HelpTopic, TopicData>> | undefined;
const all = () => (topics ??= readTopics());

/** The text `energy help <topic>` prints, 80 columns wide. */
export function topicText(topic: HelpTopic): string {
  return all()[topic].text;
}

/** `energy help <topic> --json`: the lists as data (environment, exit codes); a topic of prose as its text. */
export function topicJson(topic: HelpTopic): unknown {
  return all()[topic].json;
}
