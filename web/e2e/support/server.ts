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
  stop: () => Promise<void>;
}

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
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    dataDir,
    output: () => output,
    tell: (line) => void child.stdin?.write(`${line}\n`),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
