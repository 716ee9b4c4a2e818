/**
 * This machine's name, as os.hostname() says it (gethostname(2)): written into the sessions' application_name,
 * the journal's rows and the claims. On Linux it is read where the kernel keeps it for this process's UTS
 * namespace (/proc/sys/kernel/hostname, the nodename gethostname returns), so that a run with a state URL does
 * not load node:os for it (~0.2 ms of CPU at start, issue 48); elsewhere, or where that file cannot be read,
 * os.hostname().
 */
let known: string | undefined;

export function hostName(): string {
  known ??= fromProc() ?? process.getBuiltinModule('node:os').hostname();
  return known;
}

function fromProc(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const name = process.getBuiltinModule('node:fs').readFileSync('/proc/sys/kernel/hostname', 'utf8');
    // One name and its line's end; anything else is not what gethostname would say.
    const line = name.endsWith('\n') ? name.slice(0, -1) : name;
    return line !== '' && !line.includes('\n') ? line : undefined;
  } catch {
    return undefined;
  }
}
