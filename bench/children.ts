/**
 * The child processes of one benchmark run (servers, the load generator). Each starts in its own
 * process group and is killed as a group: nginx's worker keeps serving when only its master dies.
 * Whatever ends the run — success, a thrown error, Ctrl-C — every group is killed before it exits.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

export interface Started {
  child: ChildProcess;
  /** The last few KiB of stderr, for error messages. */
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process has gone. */
  exited: Promise<number | string>;
}

const STDERR_TAIL = 4096;

export class Children {
  private readonly running = new Set<ChildProcess>();

  /** stdout is discarded unless `captureStdout`: servers log a line per request, and nobody reads it. */
  spawn(command: string, args: string[], opts: { captureStdout?: boolean; cwd?: string } = {}): Started {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      detached: true,
      stdio: ['ignore', opts.captureStdout ? 'pipe' : 'ignore', 'pipe'],
    });
    this.running.add(child);
    let tail = '';
    child.stderr?.on('data', (d: Buffer) => {
      tail = (tail + d.toString()).slice(-STDERR_TAIL);
    });
    const exited = new Promise<number | string>((resolve) => {
      child.once('error', (err) => {
        tail += String(err);
        this.running.delete(child);
        resolve('error');
      });
      child.once('exit', (code, signal) => {
        this.running.delete(child);
        resolve(code ?? signal ?? 'unknown');
      });
    });
    return { child, stderr: () => tail, exited };
  }

  /** Run to completion and return stdout; a non-zero exit is an error carrying stderr. */
  async run(command: string, args: string[]): Promise<string> {
    const started = this.spawn(command, args, { captureStdout: true });
    let out = '';
    started.child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const code = await started.exited;
    if (code !== 0) throw new Error(`${command} exited with ${code}: ${started.stderr().trim()}`);
    return out;
  }

  get count(): number {
    return this.running.size;
  }

  /** SIGTERM every group, then SIGKILL what is still there after `graceMs`. */
  async killAll(graceMs = 2000): Promise<void> {
    const left = [...this.running];
    const gone = Promise.all(left.map((c) => new Promise((resolve) => c.once('exit', resolve))));
    for (const c of left) signalGroup(c, 'SIGTERM');
    const timer = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([gone, timer]);
    this.killAllNow();
  }

  /** Synchronous, for `process.on('exit')`, where nothing can be awaited. */
  killAllNow(): void {
    for (const c of this.running) signalGroup(c, 'SIGKILL');
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}
