/**
 * Checks for the TRON node's answers. The node's JSON comes from protobuf: a zero counter is left out and a
 * missing account is `{}`, so every counter is optional here and reads as 0; a counter that is present must
 * be a non-negative integer, or the answer breaks the spec. Unknown keys are ignored.
 */
import { type Check } from '../client/shape.js';
import { ShapeMismatch } from '../domain/errors.js';
import { printable } from '../domain/printable.js';
import type { AccountInfo, AccountResource, EnergyPrice, NowBlock } from './tron-types.js';

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

export function record(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ShapeMismatch(`${path || 'the body'} should be an object, got ${describe(value)}`);
  }
  return value as Record<string, unknown>;
}

/** An optional protobuf counter: absent is 0. */
export function counter(source: Record<string, unknown>, key: string, path = ''): number {
  const value = source[key];
  if (value === undefined) return 0;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new ShapeMismatch(`${path}${key} should be a non-negative integer, got ${describe(value)}`);
}

export function optionalString(source: Record<string, unknown>, key: string, path: string): string | undefined {
  const value = source[key];
  if (value === undefined || typeof value === 'string') return value;
  throw new ShapeMismatch(`${path}${key} should be a string, got ${describe(value)}`);
}

export const accountResource: Check<AccountResource> = (value, path) => {
  const body = record(value, path);
  return {
    EnergyLimit: counter(body, 'EnergyLimit'),
    EnergyUsed: counter(body, 'EnergyUsed'),
    freeNetLimit: counter(body, 'freeNetLimit'),
    freeNetUsed: counter(body, 'freeNetUsed'),
    NetLimit: counter(body, 'NetLimit'),
    NetUsed: counter(body, 'NetUsed'),
    empty: Object.keys(body).length === 0,
  };
};

export const nowBlock: Check<NowBlock> = (value, path) => {
  const header = record(record(record(value, path).block_header, 'block_header').raw_data, 'block_header.raw_data');
  return {
    number: counter(header, 'number', 'block_header.raw_data.'),
    timestampMs: counter(header, 'timestamp', 'block_header.raw_data.'),
  };
};

export const accountInfo: Check<AccountInfo> = (value, path) => {
  const body = record(value, path);
  optionalString(body, 'address', '');
  // protobuf prints the enum by name and leaves the default (Normal) out.
  return { activated: Object.keys(body).length > 0, contract: optionalString(body, 'type', '') === 'Contract' };
};

/**
 * POST /wallet/getchainparameters: `{"chainParameter":[{"key":…,"value":…},…]}`, java-tron's
 * GetChainParametersServlet printing Wallet.getChainParameters() as protobuf JSON, so a parameter whose value
 * is 0 comes without `value`. Only getEnergyFee is read; the others are not checked.
 */
export const energyPrice: Check<EnergyPrice> = (value, path) => {
  const list = record(value, path).chainParameter;
  if (!Array.isArray(list)) throw new ShapeMismatch(`chainParameter should be an array, got ${describe(list)}`);
  for (const [index, item] of list.entries()) {
    const parameter = record(item, `chainParameter[${index}]`);
    if (parameter.key === 'getEnergyFee')
      return { sunPerEnergy: counter(parameter, 'value', `chainParameter[${index}].`) };
  }
  throw new ShapeMismatch('chainParameter has no getEnergyFee');
};

/** A node's message, hex-encoded when `visible` was false (and by some nodes anyway), as readable text. */
export function readableMessage(message: string): string {
  if (/^(?:[0-9a-fA-F]{2})+$/.test(message)) {
    const text = Buffer.from(message, 'hex').toString('utf8');
    if (/^[\x20-\x7e]+$/.test(text)) return text;
  }
  return printable(message);
}
