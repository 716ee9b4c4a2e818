/**
 * Parsers for option and argument values. Each throws commander's InvalidArgumentError with a one-line
 * reason, which ends the run with exit 2 before any request is made.
 */
import { Argument, InvalidArgumentError, Option, type Command } from 'commander';
import { checkTronAddress } from '../domain/address.js';
import { parseUserAmount, USER_AMOUNT_ADVICE } from '../domain/money-text.js';
import { formatInteger } from '../output/format.js';
import { CLIENT_REQUEST_ID_TEXT, INTEGER_TEXT, UUID_TEXT } from '../domain/patterns.js';

const WHOLE_NUMBER = /^[1-9]\d*$/;

/** A positive whole number within JavaScript's exact integer range (no `1e3`, `0x10`, `1.0`, `+5`). */
export function positiveInteger(text: string): number {
  const trimmed = text.trim();
  if (/^\d{1,3}(?:[,._ ']\d{3})+$/.test(trimmed))
    throw new InvalidArgumentError(`write it without separators, e.g. ${trimmed.replace(/\D/g, '')}`);
  if (!WHOLE_NUMBER.test(trimmed)) throw new InvalidArgumentError('must be a positive whole number (1 or more)');
  if (!Number.isSafeInteger(Number(trimmed)))
    throw new InvalidArgumentError(`too large: at most ${formatInteger(Number.MAX_SAFE_INTEGER)}`);
  return Number(trimmed);
}

/** `--hours`: whole hours in plain digits; `1h`, `90m` or `1.5` are refused saying what to write instead. */
export function wholeHours(text: string): number {
  if (!WHOLE_NUMBER.test(text.trim()) && !/^\d{1,3}(?:[,._ ']\d{3})+$/.test(text.trim()))
    throw new InvalidArgumentError('must be whole hours, e.g. 1 (a number alone: no unit, no fraction)');
  return positiveInteger(text);
}

export function nonNegativeInteger(text: string): number {
  return text.trim() === '0' ? 0 : positiveInteger(text);
}

export function signedInteger(text: string): number {
  const trimmed = text.trim();
  if (!INTEGER_TEXT.test(trimmed)) throw new InvalidArgumentError('must be a whole number, e.g. -900');
  if (!Number.isSafeInteger(Number(trimmed))) throw new InvalidArgumentError('too large');
  return Number(trimmed);
}

/** A TCP port: 0 (any free port) to 65535. */
export function portNumber(text: string): number {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed))
    throw new InvalidArgumentError('must be a port number from 0 to 65535 (0: any free port)');
  if (trimmed.length > 5 || Number(trimmed) > 65_535)
    throw new InvalidArgumentError('too large: a port is at most 65535');
  return Number(trimmed);
}

/** `--concurrency`: 1 to 32, enough to saturate a service without becoming a flood. */
export function concurrency(text: string): number {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1)
    throw new InvalidArgumentError('must be a whole number from 1 to 32');
  if (trimmed.length > 2 || Number(trimmed) > 32) throw new InvalidArgumentError('too large: at most 32');
  return Number(trimmed);
}

/** `--retries`: 0 to 10, so that a typo cannot make a script hammer the API. */
export function retryCount(text: string): number {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) throw new InvalidArgumentError('must be a whole number, 0 or more (at most 10)');
  if (trimmed.length > 2 || Number(trimmed) > 10) throw new InvalidArgumentError('too large: at most 10');
  return Number(trimmed);
}

export function tronAddress(text: string): string {
  if (text === '')
    throw new InvalidArgumentError('the address is missing (empty): give a TRON address, T… (34 characters)');
  const stray = /[\s\u0000-\u001f\u007f]/u.exec(text)?.[0];
  if (stray !== undefined) {
    const what =
      stray === '\r'
        ? 'a carriage return (a file with Windows line endings?)'
        : stray === '\n'
          ? 'a line break'
          : /\s/u.test(stray)
            ? 'white space'
            : 'a control character';
    throw new InvalidArgumentError(`not a TRON address: it contains ${what}`);
  }
  const check = checkTronAddress(text);
  if (!check.ok) throw new InvalidArgumentError(`not a TRON address: ${check.reason}`);
  return text;
}

export function trxAmount(text: string): string {
  try {
    return parseUserAmount(text);
  } catch {
    // Commander already names the option and the value: `--max-total "abc": not a TRX amount: …`.
    throw new InvalidArgumentError(`not a TRX amount: ${USER_AMOUNT_ADVICE}`);
  }
}

/** A total to pay: 0 would be sent to the server and refused there; said here, before any request. */
export function positiveTrxAmount(text: string): string {
  const amount = trxAmount(text);
  if (/^0\.0+$/.test(amount)) throw new InvalidArgumentError('must be more than 0 TRX, e.g. the quoted total_trx');
  return amount;
}

/** A whole order id (a UUID), or its first 8 characters as a narrow terminal's `order list` shows them. */
export function orderId(text: string): string {
  if (!UUID_TEXT.test(text) && !/^[0-9a-f]{8}$/i.test(text))
    throw new InvalidArgumentError(
      'an order id is a UUID (or its first 8 characters), e.g. 3f0c…-…; see `energy order list`',
    );
  return text.toLowerCase();
}

export function clientRequestId(text: string): string {
  if (!CLIENT_REQUEST_ID_TEXT.test(text)) {
    throw new InvalidArgumentError('use 1 to 64 letters, digits or ._:- (a UUID works)');
  }
  return text;
}

/** Cursors are opaque, but they came from the server as printable text without spaces. */
export function cursor(text: string): string {
  if (text.length === 0 || text.length > 2048 || !/^[\x21-\x7e]+$/.test(text)) {
    throw new InvalidArgumentError('a cursor is the next_cursor text of a previous page');
  }
  return text;
}

/** `<address> --energy <n> --hours <h>`, shared by `quote` and `order create`. */
export function rentalArguments(command: Command): Command {
  return command
    .addArgument(new Argument('<address>', 'TRON address that receives the energy').argParser(tronAddress))
    .addOption(new Option('--energy <n>', 'amount of energy').argParser(positiveInteger).makeOptionMandatory())
    .addOption(new Option('--hours <h>', 'rental duration in hours').argParser(wholeHours).makeOptionMandatory());
}

const UINT256_MAX = (1n << 256n) - 1n;

/** A token amount in the token's smallest unit, as a bigint (never a JavaScript number): 0 to 2^256 − 1. */
export function tokenUnits(text: string): bigint {
  const trimmed = text.trim();
  if (!/^(?:0|[1-9]\d{0,77})$/.test(trimmed) || BigInt(trimmed) > UINT256_MAX) {
    throw new InvalidArgumentError('must be a whole number of the token’s smallest unit (1 USDT is 1000000)');
  }
  return BigInt(trimmed);
}
