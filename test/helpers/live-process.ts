/**
 * Another process alive on this machine, as another run holding a lock would be, and its start time read
 * from /proc the way the lock records it. Read here independently of src/storage/file-lock.ts, so that a
 * wrong reading there cannot agree with itself; shared by the lock's unit and e2e suites.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Spawns an idle Node process, adds it to `children` (for the suite to kill), and waits until it runs. */
export async function liveProcess(children: ChildProcess[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  return child;
}

/** The start time /proc gives a pid, as the lock records it (`boot id:start ticks`); undefined without /proc. */
export function startedOf(pid: number): string | undefined {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return `${boot}:${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
  } catch {
    return undefined;
  }
}
