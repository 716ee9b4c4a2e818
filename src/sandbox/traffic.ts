/**
 * Traffic on the sandbox's node (`--seed-address ADDR:transfers-per-hour=n`): ADDR sends n USDT transfers an
 * hour of sandbox time, one every 1/n hour from the start. Each takes the energy a transfer to a holder needs
 * from what the address has available; what it lacks is burnt as TRX at the chain's price. Its usage recovers
 * over java-tron's 24-hour window, and a rental that ends takes its share of the usage with it. Everything is a
 * function of sandbox time, played forward in order (transfers and rentals' ends) when the node is read or
 * the traffic is reported: no timers.
 */
/** A rental as the chain holds it: from its delivery for its term (sandbox time). */
export interface RentalSpan {
  id: string;
  energy: number;
  startMs: number;
  endMs: number;
}

/** java-tron's energy window: usage recovers linearly over 24 hours (ResourceProcessor's windowSize). */
const WINDOW_MS = 86_400_000;
const SUN_PER_TRX = 1_000_000n;

export interface TrafficReport {
  address: string;
  transfers: number;
  /** Transfers paid wholly with the address's energy. */
  covered: number;
  /** TRX burnt for the energy the others lacked, six decimals. */
  burned_trx: string;
}

interface Flow {
  address: string;
  periodMs: number;
  nextMs: number;
  /** Energy used as of `lastMs`. */
  usage: number;
  lastMs: number;
  ended: Set<string>;
  transfers: number;
  covered: number;
  burnedSun: bigint;
}

export interface TrafficChain {
  /** The address's own energy (staked), besides its rentals. */
  ownEnergy(address: string): number;
  rentals(address: string): readonly RentalSpan[];
  feeSun(): number;
}

export class Traffic {
  readonly #flows = new Map<string, Flow>();

  constructor(
    private readonly chain: TrafficChain,
    private readonly energyPerTransfer: number,
  ) {}

  add(address: string, perHour: number, used: number, startMs: number): void {
    const periodMs = 3_600_000 / perHour;
    this.#flows.set(address, {
      address,
      periodMs,
      nextMs: startMs + periodMs,
      usage: used,
      lastMs: startMs,
      ended: new Set(),
      transfers: 0,
      covered: 0,
      burnedSun: 0n,
    });
  }

  has(address: string): boolean {
    return this.#flows.has(address);
  }

  /** The address's energy used at `nowMs`, its traffic played up to then. */
  usedAt(address: string, nowMs: number): number {
    const flow = this.#flows.get(address)!;
    this.#play(flow, nowMs);
    return Math.ceil(decayed(flow.usage, nowMs - flow.lastMs));
  }

  report(nowMs: number): TrafficReport[] {
    return [...this.#flows.values()].map((flow) => {
      this.#play(flow, nowMs);
      const whole = flow.burnedSun / SUN_PER_TRX;
      const part = (flow.burnedSun % SUN_PER_TRX).toString().padStart(6, '0');
      return {
        address: flow.address,
        transfers: flow.transfers,
        covered: flow.covered,
        burned_trx: `${whole}.${part}`,
      };
    });
  }

  #limit(flow: Flow, rentals: readonly RentalSpan[], atMs: number): number {
    let limit = this.chain.ownEnergy(flow.address);
    for (const rental of rentals) if (rental.startMs <= atMs && atMs < rental.endMs) limit += rental.energy;
    return limit;
  }

  #play(flow: Flow, nowMs: number): void {
    const rentals = this.chain.rentals(flow.address);
    for (;;) {
      const end = rentals
        .filter((rental) => rental.endMs <= nowMs && !flow.ended.has(rental.id))
        .reduce<RentalSpan | undefined>(
          (first, rental) => (first && first.endMs <= rental.endMs ? first : rental),
          undefined,
        );
      const transferAt = flow.nextMs <= nowMs ? flow.nextMs : undefined;
      if (end === undefined && transferAt === undefined) return;
      if (end !== undefined && (transferAt === undefined || end.endMs <= transferAt)) this.#end(flow, rentals, end);
      else this.#transfer(flow, rentals, transferAt!);
    }
  }

  /**
   * A rental ends: java-tron's UnDelegateResourceActuator moves the receiver's usage back to the owner in
   * proportion to the stake undelegated (`transferUsage`, then `unDelegateIncrease`).
   */
  #end(flow: Flow, rentals: readonly RentalSpan[], rental: RentalSpan): void {
    flow.ended.add(rental.id);
    this.#age(flow, rental.endMs);
    if (rental.startMs >= rental.endMs) return;
    const before = this.#limit(flow, rentals, rental.endMs - 1);
    flow.usage = before <= 0 ? 0 : (flow.usage * Math.max(0, before - rental.energy)) / before;
  }

  /**
   * One transfer, paid as java-tron's ReceiptCapsule.payEnergyBill pays a contract call's energy: from what the
   * account has left when that covers it all; else what is left is used and the rest is burnt from its balance
   * at getEnergyFee sun per unit (`energyFee = (usage - accountEnergyLeft) * sunPerEnergy`).
   */
  #transfer(flow: Flow, rentals: readonly RentalSpan[], atMs: number): void {
    this.#age(flow, atMs);
    flow.nextMs += flow.periodMs;
    flow.transfers += 1;
    const left = Math.max(0, this.#limit(flow, rentals, atMs) - Math.ceil(flow.usage));
    if (left >= this.energyPerTransfer) {
      flow.usage += this.energyPerTransfer;
      flow.covered += 1;
      return;
    }
    flow.usage += left;
    flow.burnedSun += BigInt(this.energyPerTransfer - left) * BigInt(this.chain.feeSun());
  }

  #age(flow: Flow, atMs: number): void {
    flow.usage = decayed(flow.usage, atMs - flow.lastMs);
    flow.lastMs = atMs;
  }
}

/**
 * Usage recovered over `elapsedMs`: java-tron's ResourceProcessor.increase scales the last usage by
 * (windowSize - elapsed) / windowSize, and to 0 past the window.
 */
function decayed(usage: number, elapsedMs: number): number {
  if (elapsedMs <= 0) return usage;
  return elapsedMs >= WINDOW_MS ? 0 : (usage * (WINDOW_MS - elapsedMs)) / WINDOW_MS;
}
