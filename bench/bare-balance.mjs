// Baseline for `energy balance --json`: the same signed GET with node:http and node:crypto only.
import { agent, signedGet } from './signed-get.mjs';

process.stdout.write(`${JSON.stringify(await signedGet('/v1/balance'))}\n`);
agent.destroy();
