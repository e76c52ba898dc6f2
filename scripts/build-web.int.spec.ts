import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '..');
const SCRIPT = join(REPO, 'scripts/build-web.ts');

let root: string;
beforeEach(() => {
  // A small Vite project: the same script and Vite as the web app, built in a second.
  root = mkdtempSync(join(tmpdir(), 'build-web-'));
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html><body><div id="app"></div><script type="module" src="/main.js"></script></body></html>\n',
  );
  writeFileSync(join(root, 'main.js'), "document.getElementById('app').textContent = 'one';\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The build script as `npm run build` runs it, on the small project; its exit code and output. */
const build = (...args: string[]): Promise<{ code: number | null; output: string }> =>
  new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, '--root', root, ...args], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => done({ code, output }));
  });

/** `dist` is a whole build: its page, every script the page loads, and the stamp. */
const expectCompleteDist = () => {
  const dist = join(root, 'dist');
  const page = readFileSync(join(dist, 'index.html'), 'utf8');
  const scripts = [...page.matchAll(/src="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] as string);
  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) expect(existsSync(join(dist, script)), script).toBe(true);
  expect(readFileSync(join(dist, '.build-stamp'), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
  // Nothing of a build is left beside it: no lock, no temporary or old directory.
  expect(
    readdirSync(root)
      .filter((name) => name.startsWith('dist'))
      .sort(),
  ).toEqual(['dist']);
};

describe('the web build (scripts/build-web.ts)', () => {
  it('builds once when two start at the same moment, and leaves a complete dist', async () => {
    const [a, b] = await Promise.all([build(), build()]);
    expect(a?.code, a?.output).toBe(0);
    expect(b?.code, b?.output).toBe(0);
    const outputs = [a?.output ?? '', b?.output ?? ''];
    expect(outputs.filter((out) => /dist: built in \d+ ms/.test(out))).toHaveLength(1);
    expect(outputs.filter((out) => /dist: up to date/.test(out))).toHaveLength(1);
    expectCompleteDist();
  });

  it('skips the build while its inputs are unchanged, and builds again when one changes', async () => {
    expect((await build()).output).toMatch(/built in/);
    const stamp = readFileSync(join(root, 'dist/.build-stamp'), 'utf8');
    expect((await build()).output).toMatch(/up to date/);

    writeFileSync(join(root, 'main.js'), "document.getElementById('app').textContent = 'two';\n");
    expect((await build()).output).toMatch(/built in/);
    expect(readFileSync(join(root, 'dist/.build-stamp'), 'utf8')).not.toBe(stamp);
    const assets = readdirSync(join(root, 'dist/assets'));
    expect(
      assets.some((name) => readFileSync(join(root, 'dist/assets', name), 'utf8').includes('two')),
    ).toBe(true);

    expect((await build('--force')).output).toMatch(/built in/);
    expectCompleteDist();
  });

  it('takes over a lock left by a build that died', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    writeFileSync(join(root, 'dist.lock'), gone.stdout);
    const result = await build();
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain(`its holder (pid ${gone.stdout}) is gone`);
    expectCompleteDist();
  });
});
