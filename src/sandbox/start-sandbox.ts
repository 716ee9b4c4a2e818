/** Starts the HTTP server and hands back the control surface that tests and `energy sandbox` use. */
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { isApiAmount } from '../domain/money-text.js';
import { createCore, type SandboxCore } from './core.js';
import { handleRequest } from './handle-request.js';
import { resolveOptions } from './options.js';
import { problemReply, send } from './reply.js';
import type { Sandbox, SandboxOptions } from './types.js';

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const resolved = resolveOptions(options);
  const core = createCore(resolved);
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    handleRequest(req, res, core).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      send(
        res,
        problemReply(500, 'INTERNAL_ERROR', `Sandbox bug: ${error instanceof Error ? error.message : String(error)}`),
      );
    });
  });
  // Tracked so that close() can end idle keep-alive connections instead of waiting for their timeout.
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const { port } = server.address() as AddressInfo;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  let closing: Promise<void> | undefined;

  return {
    url: `http://${host}:${port}`,
    apiKey: resolved.apiKey,
    apiSecret: resolved.apiSecret,
    inject: (fault) => core.faults.inject(fault),
    clearFaults: () => core.faults.clear(),
    releaseHeld: () => {
      core.faults.drop('hold');
      releaseHeld(core);
    },
    setClockOffset: (seconds) => core.clock.setOffset(seconds),
    advance: (ms) => core.clock.advance(ms),
    setIntake: (enabled) => {
      core.intake = enabled;
    },
    setRates: (rates) => core.pricing.setRates(rates),
    setBalance: (available) => {
      if (!isApiAmount(available)) throw new RangeError(`balance must have six decimals, got ${available}`);
      core.book.available = available;
    },
    orders: () => {
      const nowMs = core.clock.nowMs();
      core.book.settle(nowMs);
      return core.book.snapshot(nowMs);
    },
    seedTronAccount: (address, seed) => core.tron.seed(address, seed, core.clock.nowMs()),
    traffic: () => core.tron.traffic.report(core.clock.nowMs()),
    setEnergyDrift: (bp) => {
      if (!(Number.isSafeInteger(bp) && bp >= 0 && bp < 10_000))
        throw new RangeError(`drift must be 0 to 9999 bp, got ${bp}`);
      core.tron.energyDriftBp = bp;
    },
    setEnergyFee: (sun) => {
      if (!(Number.isSafeInteger(sun) && sun >= 0))
        throw new RangeError(`energy fee must be whole sun ≥ 0, got ${sun}`);
      core.tron.energyFeeSun = sun;
    },
    setTronLag: (ms) => {
      if (!(Number.isSafeInteger(ms) && ms >= 0))
        throw new RangeError(`lag must be a whole number of ms ≥ 0, got ${ms}`);
      core.tron.lagMs = ms;
    },
    setMaxPageSize: (size) => {
      if (!(Number.isSafeInteger(size) && size >= 1))
        throw new RangeError(`page size must be an integer ≥ 1, got ${size}`);
      core.maxPageSize = size;
    },
    tronRequests: () => [...core.tron.requests],
    requestCount: (path, method) => {
      if (path !== undefined && method !== undefined) return core.requestsByMethod.get(`${method} ${path}`) ?? 0;
      if (path !== undefined) return core.requestsByPath.get(path) ?? 0;
      let total = 0;
      for (const n of core.requestsByPath.values()) total += n;
      return total;
    },
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of core.timers) clearTimeout(timer);
        core.timers.clear();
        releaseHeld(core);
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}

function releaseHeld(core: SandboxCore): void {
  for (const goOn of core.held) goOn();
  core.held.clear();
}
