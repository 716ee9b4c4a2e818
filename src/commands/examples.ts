/**
 * One to three examples per command, shown at the end of its help. Kept in one table (not in each command
 * file) so that the whole set reads as one page and a test can check that every command has some.
 */
const A = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

export const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  energy: [
    'energy sandbox            # a local test server, in a second terminal',
    'energy --profile sandbox balance',
    `energy quote ${A} --energy 65000 --hours 1`,
  ],
  'energy doctor': ['energy doctor', 'energy doctor --json | jq -r \'.checks[] | select(.status != "ok") | .hint\''],
  'energy state': [
    'ENERGY_STATE_URL=postgresql://energy@db/energy energy state import',
    'energy --state-url postgresql://energy@db/energy state status',
    'energy --state-url postgresql://energy@db/energy doctor',
  ],
  'energy state status': [
    'ENERGY_STATE_URL=postgresql://energy@db/energy energy state status',
    "energy state status --json | jq '.hosts[] | {host, leases_held}'",
  ],
  'energy state import': [
    'ENERGY_STATE_URL=postgresql://energy@db/energy energy state import',
    'energy state import --from /srv/old-volume/state --json',
  ],
  'energy time': ['energy time', 'energy time --json | jq .skew_seconds'],
  'energy balance': ['energy balance', 'energy --profile prod balance --json | jq -r .available_trx'],
  'energy options': ['energy options', "energy options --json | jq '.duration_hours | max'"],
  'energy quote': [
    `energy quote ${A} --energy 65000 --hours 1`,
    `energy quote "$ADDR" --energy 65000 --hours 1 --json | jq -r .total_trx`,
  ],
  'energy order': [
    'energy order list',
    'energy order pending',
    'energy order wait 3f0c9b1e-6a7d-4c2e-9f1a-2b3c4d5e6f70',
  ],
  'energy order create': [
    'energy order create "$ADDR" --energy 65000 --hours 1 --wait',
    'energy order create "$ADDR" --energy 65000 --hours 1 --max-total 5 --yes',
    'energy order create "$ADDR" --energy 65000 --hours 1 --yes --dry-run --json',
  ],
  'energy api': [
    'energy api GET /v1/balance | jq -r .available_trx',
    'energy api POST /v1/energy/quotes -f address="$ADDR" -F energy=65000 \\\n      -F duration_hours=1',
    'energy api POST /v1/energy/orders --input order.json   # journaled',
  ],
  'energy order get': [
    'energy order get 3f0c9b1e-6a7d-4c2e-9f1a-2b3c4d5e6f70',
    'energy order get "$ID" --json | jq -r .status',
  ],
  'energy order wait': [
    'energy order wait 3f0c9b1e-6a7d-4c2e-9f1a-2b3c4d5e6f70',
    'energy order wait "$ID" --wait-timeout 120 --json | jq -r .status',
  ],
  'energy order pending': ['energy order pending', "energy order pending --json | jq -r '.items[].client_request_id'"],
  'energy order drop': [
    'energy order pending --json          # age_seconds, past_term',
    'energy order drop topup-2026112309   # refused when an order carries it',
  ],
  'energy order recover': [
    'energy order recover',
    'energy order recover topup-2026112309',
    'energy order recover --yes --json    # in a script',
  ],
  'energy order batch': [
    'energy order batch payouts.csv --max-total 500 --yes',
    'energy order batch orders.ndjson --dry-run',
    'energy order batch pay.csv --yes --json | jq -c \'select(.status=="failed")\'',
  ],
  'energy order list': [
    'energy order list --limit 50',
    'energy order list --all --json > orders.json',
    'energy order list --all --output csv > orders.csv    # for a spreadsheet',
  ],
  'energy spend': [
    'energy spend --since 2026-11-01 --until 2026-12-01',
    'energy spend --since 2026-11-01 --by day --output csv > november.csv',
    'energy spend --by address --json | jq -r \'.groups[] | .key+" "+.total_trx\'',
  ],
  'energy config': [
    'energy config list',
    'energy config set base-url https://api.example.com',
    'energy --profile prod config list',
  ],
  'energy config set': [
    'energy config set base-url https://api.example.com',
    'energy config set api-key ak_live_1234',
    'printf %s "$SECRET" | energy config set api-secret',
  ],
  'energy config get': ['energy config get base-url', 'energy --profile prod config get api-secret    # masked'],
  'energy config unset': ['energy config unset api-key', 'energy --profile old config unset base-url'],
  'energy config list': ['energy config list', 'energy --profile prod config list --json'],
  'energy config profiles': ['energy config profiles'],
  'energy config delete-profile': ['energy config delete-profile staging', 'energy config delete-profile sandbox'],
  'energy config path': ['energy config path'],
  'energy address': [
    `energy address ${A}`,
    'energy address "$ADDR" --json | jq .energy_available',
    'energy --tron-node https://nile.trongrid.io address "$ADDR"',
  ],
  'energy estimate': ['energy estimate transfer --from "$ADDR" --to "$TO"'],
  'energy estimate transfer': [
    'energy estimate transfer --from "$ADDR" --to "$TO"',
    'energy estimate transfer --from "$ADDR" --to "$TO" --amount 1000000 --json',
    'energy estimate transfer --from "$ADDR" --to "$TO" --token "$TRC20"',
  ],
  'energy ensure': [
    'energy ensure "$ADDR" --energy 65000 --hours 1 --yes',
    'energy ensure "$A1" "$A2" --energy 131000 --hours 24 --max-total 50 --yes',
    'energy ensure "$ADDR" --transfers 3 --hours 1 --dry-run --json',
  ],
  'energy completion': [
    'source <(energy completion bash)',
    "echo 'source <(energy completion zsh)' >> ~/.zshrc",
    'energy completion fish > ~/.config/fish/completions/energy.fish',
  ],
  'energy exit-codes': [
    'energy help exit-codes',
    'energy order wait "$ID"; [ $? -eq 10 ] && echo "not final yet"',
    'energy exit-codes --json | jq -r \'.exit_codes[] | "\\(.code) \\(.meaning)"\'',
  ],
  'energy sandbox': [
    'energy sandbox            # then, in another terminal:',
    'energy --profile sandbox balance',
    'energy sandbox --port 0 --no-save --json',
  ],
};

/** The help text block for a command path such as `energy order create`, or undefined when none. */
export function examplesHelp(path: string): string | undefined {
  const examples = EXAMPLES[path];
  if (examples === undefined) return undefined;
  return `\nExamples:\n${examples.map((line) => `  $ ${line}`).join('\n')}`;
}
