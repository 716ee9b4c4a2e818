/**
 * `energy api <METHOD> <path>`: one signed request written by hand, like `gh api` (the flow is
 * ordering/api-request.ts). The body of the answer goes to stdout as received, an error's body too (as
 * `gh api` prints a 404's JSON, so that `| jq .code` reads it); a failure status also says its one line
 * on stderr and exits with its usual code.
 */
import { Argument, Command, Option } from 'commander';
import type { ApiField } from '../ordering/api-fields.js';
import type { ApiRequest } from '../ordering/api-request.js';
import { writeApiAnswer } from '../output/api-answer.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export interface ApiCommandOptions extends Pick<
  CommandServices,
  'client' | 'journal' | 'terminal' | 'printer' | 'invocation'
> {
  request: ApiRequest;
}

export function apiCommand(ctx: Context, run: (options: ApiCommandOptions) => Promise<void> = apiRun): Command {
  // -f and -F share one list, so that the body's fields keep the order they were given in.
  const specs: { typed: boolean; spec: string }[] = [];
  const collect = (typed: boolean) => (spec: string) => {
    specs.push({ typed, spec });
    return specs;
  };
  return new Command('api')
    .summary('send one signed request to any API path')
    .description(
      'send one signed request to any API path (like gh api) and print the answer as received; a POST to /v1/energy/orders is journaled like any order and needs a client_request_id',
    )
    .addArgument(new Argument('<method>', 'GET or POST'))
    .addArgument(new Argument('<path>', 'e.g. /v1/balance or /v1/energy/orders?limit=5'))
    .addOption(new Option('-f, --raw-field <key=value>', 'a string field (repeatable)').argParser(collect(false)))
    .addOption(
      new Option(
        '-F, --field <key=value>',
        'a typed field: numbers as typed, true, false, null (repeatable)',
      ).argParser(collect(true)),
    )
    .addOption(
      new Option('--input <file>', 'the exact body bytes, from a file or - for stdin (fields go to the query)'),
    )
    .action(async (method: string, path: string, parsed: { input?: string }) => {
      const { stringField, typedField } = await import('../ordering/api-fields.js');
      const fields: ApiField[] = specs.map(({ typed, spec }) => (typed ? typedField(spec) : stringField(spec)));
      await run({ request: { method, path, fields, input: parsed.input }, ...ctx.services() });
    });
}

export async function apiRun(opts: ApiCommandOptions): Promise<void> {
  const [{ apiRequest }, { failureBody }] = await Promise.all([
    import('../ordering/api-request.js'),
    import('../client/decode.js'),
  ]);
  const deps = {
    client: opts.client,
    journal: opts.journal,
    stdin: opts.terminal.stdin,
    interrupt: opts.terminal.interrupt,
    recoverCommand: (id: string) => opts.invocation('order', 'recover', id),
  };
  let body: Buffer;
  try {
    body = (await apiRequest(deps, opts.request)).body;
  } catch (error) {
    // The server's answer first, on stdout; the error (and its exit code) follows as for every command.
    const answered = failureBody(error);
    if (answered !== undefined) await writeApiAnswer(opts.printer, answered);
    throw error;
  }
  await writeApiAnswer(opts.printer, body);
}
