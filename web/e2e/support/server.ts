import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface ProductServer {
  readonly url: string;
  readonly dataDir: string;
  /** Everything the server printed, for a failing test's report. */
  readonly output: () => string;
  /** Writes a line to the server's standard input (read by a test entry such as api/src/testing/held-catalog-main.ts). */
  readonly tell: (line: string) => void;
  /** Stops the server (SIGTERM) and keeps its data directory, for `restart`. */
  halt: () => Promise<void>;
  /** Starts it again (after `halt`, or stopping it first) on the same port and data directory. */
  restart: () => Promise<void>;
  /** Resolves once `/health` says the read models have caught up (reads answer, not 503). */
  whenReady: () => Promise<void>;
  stop: () => Promise<void>;
}

interface Running {
  readonly child: ChildProcess;
  readonly url: string;
}

/** Starts the server process and resolves with its URL once it says it is listening. */
const spawnServer = async (
  env: Record<string, string>,
  entry: string,
  onOutput: (chunk: string) => void,
  output: () => string,
): Promise<Running> => {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let seen = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output()}`)), 60_000);
    const onData = (chunk: Buffer) => {
      onOutput(chunk.toString());
      seen += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output()}`));
    });
  });
  return { child, url };
};

/** SIGTERM, and the process's exit. */
const terminate = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
};

/**
 * The product as `npm start` runs it (the built web app and the API on one port, embedded stores),
 * on an ephemeral port of 127.0.0.1 with a fresh data directory.
 */
export const startProductServer = async (
  env: Record<string, string> = {},
  /** The script the process runs, from the repository's root: `api/src/main.ts` unless set. */
  entry = 'api/src/main.ts',
): Promise<ProductServer> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'auction-e2e-'));
  let output = '';
  const onOutput = (chunk: string) => void (output += chunk);
  const fullEnv = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...env };
  let running = await spawnServer(fullEnv, entry, onOutput, () => output);
  const { url } = running;
  return {
    url,
    dataDir,
    output: () => output,
    tell: (line) => void running.child.stdin?.write(`${line}\n`),
    halt: () => terminate(running.child),
    restart: async () => {
      await terminate(running.child);
      const port = new URL(url).port;
      running = await spawnServer({ ...fullEnv, PORT: port }, entry, onOutput, () => output);
    },
    whenReady: async () => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const health = await fetch(`${url}/api/v1/health`).catch(() => null);
        const body = (await health?.json().catch(() => null)) as { ready?: boolean } | null;
        if (health?.ok && body?.ready !== false) return;
        if (Date.now() > deadline) throw new Error(`server not ready:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    stop: async () => {
      await terminate(running.child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
