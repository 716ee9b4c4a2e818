/** Text forms of API values for the readable (non-JSON) output; those messages use too are in domain/. */
export { formatInteger, formatIsoTime, formatTimestamp } from '../domain/text-forms.js';

export function formatYesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

export function formatSeconds(seconds: number): string {
  return `${seconds > 0 ? '+' : ''}${seconds} s`;
}
