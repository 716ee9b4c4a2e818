/** What `energy sandbox` says once it listens: where it is, its credentials (the secret masked where saved). */
import type { Row } from './views.js';

export interface SandboxFacts {
  base_url: string;
  api_key: string;
  /** Whole only where it was made up and not saved (else nobody could use the sandbox); else masked. */
  api_secret: string;
  tron_node: string;
  /** The profile it was saved in, or null with --no-save. */
  profile: string | null;
}

export function sandboxRows(facts: SandboxFacts): Row[] {
  return [
    ['Base URL', facts.base_url],
    ['API key', facts.api_key],
    ['API secret', `${facts.api_secret}${facts.profile === null ? '' : ` (saved in profile ${facts.profile})`}`],
    ['TRON node', `${facts.tron_node}/wallet/…`],
  ];
}

export function sandboxNote(facts: SandboxFacts): string {
  return facts.profile === null
    ? 'energy: Ctrl-C stops the sandbox'
    : `energy: try \`energy --profile ${facts.profile} balance\`; Ctrl-C stops the sandbox`;
}
