import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config/config';

const MAIN = resolve(import.meta.dirname, '../main.ts');
const LISTENING = /listening on (http:\/\/\S+)/;

export interface ChildServer {
  readonly url: string;
  readonly pid: number;
  readonly process: ChildProcess;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  readonly exited: Promise<number | NodeJS.Signals>;
  /** Sends the signal and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<number | NodeJS.Signals>;
  /** CPU seconds (user + system) the process has used, from /proc; undefined where there is none. */
  cpuSeconds(): number | undefined;
}

/**
 * `npm start` as a child process (`node --import tsx api/src/main.ts`) on 127.0.0.1 and a free
 * port; resolves once it listens and, unless `ready` is false, once `/health` says its read models
 * have caught up (the server listens before that). `nodeArgs` go to node (e.g. `--cpu-prof`).
 */
/** The settings of a child server: its Config, and `OP_COUNTS_DIR` (stores/op-counts.ts). */
type ChildEnv = Partial<Record<keyof Config | 'OP_COUNTS_DIR', string>> & { DATA_DIR: string };

export const startChildServer = async (
  env: ChildEnv,
  options: { nodeArgs?: readonly string[]; startTimeoutMs?: number; ready?: boolean } = {},
): Promise<ChildServer> => {
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const deadline = Date.now() + startTimeoutMs;
  const server = await listeningChild(env, options.nodeArgs ?? [], startTimeoutMs);
  if (options.ready === false) return server;
  for (;;) {
    // 200 without `ready: false`: every store answers and the read models have caught up.
    const health = await fetch(`${server.url}/api/v1/health`).then(
      async (res) => ({ status: res.status, ...((await res.json()) as { ready?: boolean }) }),
      () => undefined,
    );
    if (health?.status === 200 && health.ready !== false) return server;
    if (Date.now() > deadline || server.process.exitCode !== null) {
      await server.stop('SIGKILL');
      throw new Error(`The server's read models did not catch up in time:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const listeningChild = (
  env: ChildEnv,
  nodeArgs: readonly string[],
  startTimeoutMs: number,
): Promise<ChildServer> =>
  new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', MAIN], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let started = false;
    const exited = new Promise<number | NodeJS.Signals>((done) =>
      child.once('exit', (code, signal) => done(signal ?? code ?? 0)),
    );
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`The server did not start in time:\n${output}`));
    }, startTimeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const url = LISTENING.exec(output)?.[1];
      if (started || url === undefined) return;
      started = true;
      clearTimeout(timer);
      const pid = child.pid as number;
      resolvePromise({
        url,
        pid,
        process: child,
        output: () => output,
        exited,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
        cpuSeconds: () => procCpuSeconds(pid),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((how) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`The server exited (${how}) before listening:\n${output}`));
    });
  });

/** CPU seconds (user + system) process `pid` has used, from /proc; undefined where there is none. */
export const procCpuSeconds = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
};
