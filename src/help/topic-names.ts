/**
 * The help topics (`energy help <topic>`, as gh has them) and their one-line summaries, for the root help.
 * Their texts are in topics.ts, a file of its own in the bundle, loaded only when a topic is asked for.
 */
export const HELP_TOPICS = {
  environment: 'the environment variables energy reads',
  'exit-codes': 'what each exit status means',
  formatting: 'tables, JSON and CSV, and how scripts read them',
  service: 'ensure --every as a service: metrics, health, event hooks',
} as const;
export type HelpTopic = keyof typeof HELP_TOPICS;

export function isHelpTopic(word: string): word is HelpTopic {
  return Object.hasOwn(HELP_TOPICS, word);
}
