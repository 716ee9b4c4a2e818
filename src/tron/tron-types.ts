/** The parts of the TRON node's answers that `energy` reads, after checking (absent counters become 0). */

/** POST /wallet/getaccountresource. Protobuf-to-JSON leaves zero counters out; `{}` for an unactivated address. */
export interface AccountResource {
  EnergyLimit: number;
  EnergyUsed: number;
  freeNetLimit: number;
  freeNetUsed: number;
  NetLimit: number;
  NetUsed: number;
  /** True when the node answered `{}`: no account on chain. */
  empty: boolean;
}

/** POST /wallet/getaccount: `{}` when the address is not activated. */
export interface AccountInfo {
  activated: boolean;
  /** `"type":"Contract"`: a smart contract's account, which java-tron never delegates resources to. */
  contract: boolean;
}

/** How a simulation failed: the call itself (reverted), a call the node cannot run (invalid), or the node. */
export type SimulationFailure = 'reverted' | 'invalid' | 'node';

/** POST /wallet/triggerconstantcontract. */
export type ConstantCallResult =
  | { ok: true; energyUsed: number; energyPenalty: number }
  | {
      ok: false;
      failure: SimulationFailure;
      code: string | undefined;
      message: string | undefined;
      /** `transaction.ret` said FAILED. */
      failedRet: boolean;
      /** Burned before the failure: never an estimate. */
      energyUsed: number;
      revertReason: string | undefined;
    };

export interface TransferSimulation {
  /** Sender, base58. */
  from: string;
  /** Recipient, base58. */
  to: string;
  /** TRC-20 contract, base58. */
  token: string;
  /** In the token's smallest unit. */
  amount: bigint;
}

/** From POST /wallet/getchainparameters: the sun burnt for each unit of energy an account lacks. */
export interface EnergyPrice {
  sunPerEnergy: number;
}

/** POST /wallet/getnowblock: the head block's number and time (ms), for `doctor`. */
export interface NowBlock {
  number: number;
  timestampMs: number;
}
