import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer } from '../../testing/child-server';

const REPO = resolve(import.meta.dirname, '../../../..');
const DIST = join(REPO, 'web/dist');

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The body as it came over the wire (not decompressed). */
  readonly body: Buffer;
}

/** A raw request (node:http does not decompress), with the Accept-Encoding given. */
const get = (
  url: string,
  path: string,
  acceptEncoding: string | null,
  method = 'GET',
): Promise<Answer> =>
  new Promise((done, fail) => {
    const headers: Record<string, string> = { accept: 'text/html,*/*' };
    if (acceptEncoding !== null) headers['accept-encoding'] = acceptEncoding;
    const req = request(`${url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });

/**
 * The real web build (`npm run build`: precompressed beside each file) served by the real server
 * (api/src/main.ts as a child process): each file in the encoding the browser accepts, with the
 * headers a cache and a browser need.
 */
describe('the web app is served precompressed (brotli, gzip) by Accept-Encoding', () => {
  let server: ChildServer;
  let dataDir: string;
  let script: string;

  beforeAll(async () => {
    const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-web.ts'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    expect(build.status, build.stderr).toBe(0);
    // The app's entry script, as index.html loads it.
    const page = readFileSync(join(DIST, 'index.html'), 'utf8');
    script = /src="(\/assets\/index-[^"]+\.js)"/.exec(page)?.[1] ?? '';
    expect(script).not.toBe('');
    dataDir = mkdtempSync(join(tmpdir(), 'web-app-'));
    server = await startChildServer({ DATA_DIR: dataDir, WEB_DIR: DIST });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('the build wrote a smaller .br and .gz beside every script and style', () => {
    const assets = readdirSync(join(DIST, 'assets'));
    const texts = assets.filter((name) => /\.(js|css)$/.test(name));
    expect(texts.length).toBeGreaterThan(1);
    for (const name of texts) {
      const size = statSync(join(DIST, 'assets', name)).size;
      for (const suffix of ['.br', '.gz']) {
        if (size < 1024 && !assets.includes(name + suffix)) continue; // too small to gain
        expect(assets, name + suffix).toContain(name + suffix);
        expect(statSync(join(DIST, 'assets', name + suffix)).size).toBeLessThan(size);
      }
    }
  });

  it('a hashed script: brotli when accepted, immutable for a year, varying by Accept-Encoding', async () => {
    const original = readFileSync(join(DIST, script));
    const res = await get(server.url, script, 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(original.length / 2);
    expect(brotliDecompressSync(res.body).equals(original)).toBe(true);
  });

  it('gzip for a browser without brotli, or one that refuses it (q=0)', async () => {
    const original = readFileSync(join(DIST, script));
    for (const accept of ['gzip, deflate', 'br;q=0, gzip']) {
      const res = await get(server.url, script, accept);
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(gunzipSync(res.body).equals(original)).toBe(true);
    }
  });

  it('as it is without Accept-Encoding, or when only identity is accepted', async () => {
    const original = readFileSync(join(DIST, script));
    for (const accept of [null, 'identity', 'br;q=0, gzip;q=0']) {
      const res = await get(server.url, script, accept);
      expect(res.status, String(accept)).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(Number(res.headers['content-length'])).toBe(original.length);
      expect(res.body.equals(original)).toBe(true);
    }
  });

  it('index.html, at / and at an app route: compressed, revalidated on every load', async () => {
    const original = readFileSync(join(DIST, 'index.html'));
    for (const path of ['/', '/auction/123', '/index.html']) {
      const res = await get(server.url, path, 'br');
      expect(res.status, path).toBe(200);
      expect(res.headers['content-encoding'], path).toBe('br');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], path).toBe('no-cache');
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(brotliDecompressSync(res.body).equals(original)).toBe(true);
    }
  });

  it('HEAD gives the compressed length and no body', async () => {
    const head = await get(server.url, script, 'gzip, deflate, br', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(Number(head.headers['content-length'])).toBe(statSync(join(DIST, `${script}.br`)).size);
    expect(head.body.length).toBe(0);
  });
});
