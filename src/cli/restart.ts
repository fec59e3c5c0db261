/**
 * Running a command again in a process of its own with V8 flags, which V8 takes only when a process
 * starts (`fds build` for its bounded heap, `fds serve` for its first heap limit). The starter passes
 * signals on and ends with the child's exit code; the child ends when the starter is gone.
 */
import { spawn } from 'node:child_process';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface RestartOptions {
  /**
   * The child in a process group of its own, so a terminal's Ctrl-C reaches it once (passed on by
   * the starter) rather than twice: a server takes a second SIGINT as "stop now".
   */
  ownGroup?: boolean;
}

/** This same command again, with `flags` before its own; settles with its exit code. */
export function runAgainWith(flags: string[], env: NodeJS.ProcessEnv, opts: RestartOptions = {}): Promise<number> {
  const args = [...flags, ...process.execArgv, ...process.argv.slice(1)];
  // The IPC channel closes when this process ends however it ends, which the child takes as its end too.
  const child = spawn(process.execPath, args, {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env,
    detached: !!opts.ownGroup,
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of SIGNALS) process.on(signal, forward);
  // Started in turn by a command of ours (`fds start`): when that one is gone, however it went, the
  // child goes as on SIGTERM — else a server would outlive the command that was to stop it.
  const starterGone = () => child.kill('SIGTERM');
  if (process.channel) {
    process.channel.unref();
    process.once('disconnect', starterGone);
  }
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      for (const s of SIGNALS) process.off(s, forward);
      process.off('disconnect', starterGone);
      resolve(code ?? (signal === 'SIGINT' ? 130 : 1));
    });
  });
}

/**
 * In the child: when the command that started it is gone, even killed outright (a signal it could
 * not pass on), act as if `signal` had reached this process.
 */
export function endWithStarter(signal: NodeJS.Signals): void {
  if (!process.channel) return;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, signal));
}
