/**
 * `triggerconstantcontract` answers as real java-tron nodes send them, read by the check and by
 * estimateTransfer over a real socket. Each fixture says where it comes from; the few that are derived from a
 * real answer (one sign of failure removed, to test each sign alone) say so.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CliError, ExitCode, UsageError } from '../../../src/domain/errors.js';
import { TransferRevertedError, TronNodeError } from '../../../src/domain/cli-errors.js';
import { constantCallResult, decodeRevertReason } from '../../../src/tron/constant-call.js';
import { estimateTransfer } from '../../../src/tron/estimate-transfer.js';
import { jsonReply } from '../../helpers/http-server.js';
import { scriptedTronForSuite } from '../../helpers/scripted-tron.js';

/**
 * A reverted TRC-20 transfer from a sender without the tokens, verbatim from tron-rpc.publicnode.com, as kept in
 * sxwebdev/gotron pkg/client/transport_http_trigger_test.go @4b6660ba (`liveConstantRevertResponse`; its
 * `transaction` is trimmed there). `result.result` is true: only `message` and `ret` tell.
 */
const LIVE_REVERT = {
  result: { result: true, message: 'REVERT opcode executed' },
  constant_result: [''],
  energy_used: 8624,
  energy_penalty: 5859,
  transaction: {
    ret: [{ ret: 'FAILED' }],
    visible: true,
    txID: '0c32fa4b4ea21f8eb5d65daf01c62ac1c252a509a20875788f02d4c93211e1a8',
  },
};

/**
 * A TRC-20 transfer from an account with no balance on the Shasta testnet, in a Go client's fixtures "captured
 * against the live Shasta testnet" (the repository was not identifiable): no `ret` at all, the message alone.
 */
const SHASTA_REVERT = {
  constant_result: ['0000000000000000000000000000000000000000000000000000000000000000'],
  energy_used: 821,
  result: { result: true, message: 'REVERT opcode executed' },
  transaction: { visible: true },
};

/** LIVE_REVERT as a node sends it with `visible` false: java-tron's JsonFormat prints `Return.message` in hex. */
const LIVE_REVERT_HEX = {
  ...LIVE_REVERT,
  result: { result: true, message: Buffer.from('REVERT opcode executed').toString('hex') },
};

/** Derived from LIVE_REVERT: the message removed, so that the FAILED ret alone must tell. */
const FAILED_RET_ONLY = { ...LIVE_REVERT, result: { result: true } };

/**
 * Derived from LIVE_REVERT: `constant_result` holding a Solidity `Error(string)`, which java-tron returns there on
 * a revert with a reason (documentation-en, triggerconstantcontract.md @069bf4cf, "Error responses").
 */
const reasonText = Buffer.from('transfer amount exceeds balance');
const REASON_REVERT = {
  ...LIVE_REVERT,
  constant_result: [
    `08c379a0${'20'.padStart(64, '0')}${reasonText.length.toString(16).padStart(64, '0')}${reasonText.toString('hex').padEnd(64, '0')}`,
  ],
};

/** A successful balanceOf on Nile, verbatim from documentation-en triggerconstantcontract.md @069bf4cf (trimmed raw_data). */
const NILE_SUCCESS = {
  result: { result: true },
  energy_used: 935,
  constant_result: ['0000000000000000000000000000000000000000000000000000000040cfcc00'],
  transaction: {
    ret: [{}],
    visible: false,
    txID: 'cff6488e738ce77f7325572fe0aa2470f87dbf1c95eeeb2c25feec59d5afa35c',
  },
};

/** NILE_SUCCESS with the figures of a USDT transfer to a holder, 64,285 of which 49,635 penalty (a third-party fixture of a TronGrid answer, unattributed). */
const USDT_SUCCESS = { ...NILE_SUCCESS, energy_used: 64_285, energy_penalty: 49_635 };

/** No contract at the address, verbatim from tron-rpc.publicnode.com (sxwebdev/gotron, same file). */
const NO_CONTRACT = {
  result: { code: 'CONTRACT_VALIDATE_ERROR', message: 'No contract or not a valid smart contract' },
};

/** The same on Nile with `visible` false: hex message (tronprotocol/java-tron issue #3660). */
const NO_CONTRACT_HEX = {
  result: {
    code: 'CONTRACT_VALIDATE_ERROR',
    message: '4e6f20636f6e7472616374206f72206e6f7420612076616c696420736d61727420636f6e7472616374',
  },
};

/** A VM exception, as TriggerConstantContractServlet's catch-all prints it (OTHER_ERROR, the class and message). */
const VM_TIMEOUT = {
  result: {
    code: 'OTHER_ERROR',
    message: "class org.tron.core.vm.program.Program$OutOfTimeException : CPU timeout for 'PUSH1' operation executing",
  },
};

describe('constantCallResult', () => {
  it.each([
    ['the live revert (result.result true)', LIVE_REVERT, 8624],
    ['the Shasta revert (message only)', SHASTA_REVERT, 821],
    ['the hex-message revert', LIVE_REVERT_HEX, 8624],
    ['a FAILED ret without a message', FAILED_RET_ONLY, 8624],
    ['result.result false without a code', { result: { result: false }, energy_used: 500 }, 500],
  ])('%s is a failed simulation, never an estimate', (_label, body, burned) => {
    const result = constantCallResult(body, '');
    expect(result.ok).toBe(false);
    expect(result).toMatchObject({ failure: 'reverted', energyUsed: burned });
  });

  it('a real success is an estimate, penalty included', () => {
    expect(constantCallResult(NILE_SUCCESS, '')).toEqual({ ok: true, energyUsed: 935, energyPenalty: 0 });
    expect(constantCallResult(USDT_SUCCESS, '')).toEqual({ ok: true, energyUsed: 64_285, energyPenalty: 49_635 });
  });

  it('tells a call the node cannot run, and a node failure, from a revert', () => {
    expect(constantCallResult(NO_CONTRACT, '')).toMatchObject({ ok: false, failure: 'invalid' });
    expect(constantCallResult(VM_TIMEOUT, '')).toMatchObject({ ok: false, failure: 'node' });
  });
});

/**
 * OpenZeppelin Ownable's revert, whose reason is exactly one 32-byte word: the data ends where the text ends,
 * with no padding after it. Written out word by word as every EVM trace shows it (selector, offset 0x20,
 * length 0x20, the text), not encoded by our code.
 */
const OWNABLE_REVERT = [
  '08c379a0',
  '0000000000000000000000000000000000000000000000000000000000000020',
  '0000000000000000000000000000000000000000000000000000000000000020',
  '4f776e61626c653a2063616c6c6572206973206e6f7420746865206f776e6572',
].join('');

describe('decodeRevertReason', () => {
  it('reads a reason that fills its words exactly (32 and 64 bytes), and an empty one', () => {
    expect(decodeRevertReason(OWNABLE_REVERT)).toBe('Ownable: caller is not the owner');
    const sixtyFour = 'x'.repeat(64);
    const word = (n: number) => n.toString(16).padStart(64, '0');
    expect(decodeRevertReason(`08c379a0${word(32)}${word(64)}${Buffer.from(sixtyFour).toString('hex')}`)).toBe(
      sixtyFour,
    );
    expect(decodeRevertReason(`08c379a0${word(32)}${word(0)}`)).toBe('');
  });

  it('gives nothing for a length beyond the data, or data that is not Error(string)', () => {
    expect(decodeRevertReason(OWNABLE_REVERT.slice(0, -2))).toBeUndefined();
    expect(decodeRevertReason(`08c379a0${'0'.repeat(62)}20${'0'.repeat(62)}21${'41'.repeat(32)}`)).toBeUndefined();
    expect(decodeRevertReason(`4e487b71${'0'.repeat(62)}11`)).toBeUndefined();
  });
});

const tron = scriptedTronForSuite();
afterEach(() => {
  tron.server.seen.length = 0;
});

const simulation = {
  from: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
  to: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
  token: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  amount: 1n,
};

async function failureOf(body: unknown): Promise<CliError> {
  tron.server.script(jsonReply(200, body));
  const error = await estimateTransfer(tron.node, simulation).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof CliError)) throw new Error(`expected a CliError, got ${String(error)}`);
  return error;
}

describe('estimateTransfer on real answers', () => {
  it('the live revert is exit 2 saying it reverts, with no energy figure', async () => {
    const error = await failureOf(LIVE_REVERT);
    expect(error).toBeInstanceOf(TransferRevertedError);
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe('the simulated transfer reverts: REVERT opcode executed');
    expect(error.message).not.toContain('8624');
  });

  it('decodes the hex message, and an Error(string) reason from constant_result', async () => {
    expect((await failureOf(LIVE_REVERT_HEX)).message).toBe('the simulated transfer reverts: REVERT opcode executed');
    expect((await failureOf(REASON_REVERT)).message).toBe(
      'the simulated transfer reverts: REVERT opcode executed ("transfer amount exceeds balance")',
    );
    const ownable = { ...LIVE_REVERT, constant_result: [OWNABLE_REVERT] };
    expect((await failureOf(ownable)).message).toBe(
      'the simulated transfer reverts: REVERT opcode executed ("Ownable: caller is not the owner")',
    );
  });

  it('a FAILED ret alone is a revert too', async () => {
    const error = await failureOf(FAILED_RET_ONLY);
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe('the simulated transfer reverts: the node marks the call FAILED');
  });

  it('no contract at the token address is exit 2, readable in either encoding', async () => {
    for (const body of [NO_CONTRACT, NO_CONTRACT_HEX]) {
      const error = await failureOf(body);
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toBe(
        'the TRON node cannot simulate this call: CONTRACT_VALIDATE_ERROR: No contract or not a valid smart contract',
      );
    }
  });

  it('a VM exception on the node is exit 7', async () => {
    const error = await failureOf(VM_TIMEOUT);
    expect(error).toBeInstanceOf(TronNodeError);
    expect(error.exitCode).toBe(ExitCode.service);
    expect(error.message).toMatch(/OTHER_ERROR: class org\.tron\.core\.vm\.program\.Program\$OutOfTimeException/);
  });

  it('a real success is the estimate', async () => {
    tron.server.script(jsonReply(200, USDT_SUCCESS));
    expect(await estimateTransfer(tron.node, simulation)).toEqual({ energyUsed: 64_285, energyPenalty: 49_635 });
  });
});
