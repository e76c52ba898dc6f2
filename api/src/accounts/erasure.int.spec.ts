import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAuctionOverHttp, placeBid, signUpAndLogIn } from '../testing/fixtures';
import { type TestServer, startTestServer } from '../testing/test-server';
import { SqliteAccountStore } from './sqlite-account-store';

let server: TestServer;

const b64 = (bytes: number) => randomBytes(bytes).toString('base64url');

/** Every file under `dir`, recursively (the databases, their `-wal` and `-shm`, uploads, ...). */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name))
      : entry.isFile()
        ? [join(dir, entry.name)]
        : [],
  );

/** Each needle found in a file of DATA_DIR, as `file: needle` (ASCII case folded, UTF-8 and UTF-16). */
const traces = (dir: string, needles: Record<string, Buffer | string>): string[] => {
  const found: string[] = [];
  for (const file of filesUnder(dir)) {
    const bytes = readFileSync(file);
    const folded = Buffer.from(bytes.toString('latin1').toLowerCase(), 'latin1');
    for (const [what, needle] of Object.entries(needles)) {
      const hits =
        typeof needle === 'string'
          ? folded.includes(needle.toLowerCase(), 0, 'utf8') || bytes.includes(needle, 0, 'utf16le')
          : bytes.includes(needle);
      if (hits) found.push(`${file.slice(dir.length + 1)}: ${what}`);
    }
  }
  return found;
};

/** A small seeded generator (mulberry32), so the history of the accounts file is the same each run. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/**
 * A history of sign-ups and erasures in which the victim's row is moved by a b-tree balance and
 * the page it left keeps a copy of it in its free space: with this SQLite and rows of these sizes
 * (every name, e-mail and hash below is as long as the victim's), the victim signs up at step 225
 * and is the account erased at step 292. Before the fix, its e-mail, names and hash were still in
 * `accounts.sqlite` after the erasure, although `secure_delete` zeroed the row itself.
 */
const HISTORY = { seed: 7, victimSignsUpAt: 225, victimLeavesAt: 292 };

// On MongoDB (TEST_STORES=mongodb) the accounts are not in DATA_DIR: what is left of an erased
// document in MongoDB's own files is that server's business.
describe.skipIf(process.env.TEST_STORES === 'mongodb')(
  'erasing an account (DELETE /user/delete-account)',
  () => {
    beforeAll(async () => (server = await startTestServer()));
    afterAll(() => server.cleanup());

    it('leaves its name, e-mail and password hash in no file of DATA_DIR', async () => {
      const firstName = 'Xanthippe';
      const lastName = 'Quodlibetarian';
      const email = '  Xanthippe.Quodlibet@Erasure-Proof.Example ';
      const password = 'Zq9!erasure-proof';
      const seller = await signUpAndLogIn(server, {
        firstName: 'Sebastian',
        lastName: 'Vendorellitano',
        email: 'Sebastiano.Vendorel@Erasure-Proof.Example',
      });
      const theirs = await createAuctionOverHttp(seller.client, { endsInMs: 3_600_000 });

      const neighbour = async (step: number) => {
        const n = String(step).padStart(6, '0');
        const account = await server.deps.accounts.create({
          id: randomUUID(),
          firstName: `Nbr${n}`,
          lastName: `Resident${n}`,
          email: `${b64(24).slice(0, 29)}@example.com`,
          imageUrl: null,
          passwordHash: ['scrypt', 32768, 8, 1, b64(16), b64(32)].join('$'),
          googleSubject: null,
          createdAt: new Date().toISOString(),
        });
        return account.id;
      };

      const random = seeded(HISTORY.seed);
      const live: string[] = [];
      let victim: Awaited<ReturnType<typeof signUpAndLogIn>> | undefined;
      let needles: Record<string, Buffer | string> = {};
      let step = 0;
      for (; step < 1000; step++) {
        if (random() < 0.6 || live.length === 0) {
          if (step !== HISTORY.victimSignsUpAt) {
            live.push(await neighbour(step));
            continue;
          }
          victim = await signUpAndLogIn(server, { firstName, lastName, email, password });
          live.push(victim.id);

          // Use the product a bit: an auction of one's own, a bid, logging out and in again.
          await createAuctionOverHttp(victim.client, { title: 'Astrolabe', endsInMs: 3_600_000 });
          await placeBid(victim, theirs, 150);
          expect((await victim.client.post('/api/v1/auth/logout')).status).toBe(200);
          const login = await victim.client.post('/api/v1/auth/login', {
            json: { email: email.trim(), password },
          });
          expect(login.status).toBe(200);
          expect((await victim.client.get('/api/v1/user/profile')).status).toBe(200);

          const hash = (await server.deps.accounts.byId(victim.id))?.passwordHash;
          if (!hash) throw new Error('the victim has no password hash');
          const [, , , , salt = '', key = ''] = hash.split('$');
          needles = {
            firstName,
            lastName,
            email: email.trim(),
            'normalised e-mail': email.trim().toLowerCase(),
            'local part': 'Xanthippe.Quodlibet',
            password,
            'password hash': hash,
            'hash salt': salt,
            'hash key': key,
            'salt bytes': Buffer.from(salt, 'base64url'),
            'key bytes': Buffer.from(key, 'base64url'),
            'key hex': Buffer.from(key, 'base64url').toString('hex'),
          };
          // The scan sees them while the account exists (so it would see them after).
          expect(traces(server.dataDir, needles)).toEqual(
            expect.arrayContaining([
              expect.stringMatching(/^accounts\.sqlite.*: normalised e-mail$/),
            ]),
          );
          continue;
        }
        const [leaving] = live.splice(Math.floor(random() * live.length), 1);
        if (!victim || leaving !== victim.id) {
          await server.deps.accounts.erase(leaving as string);
          continue;
        }
        const deleted = await victim.client.delete('/api/v1/user/delete-account');
        expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
        break;
      }
      expect(step).toBe(HISTORY.victimLeavesAt);

      expect(traces(server.dataDir, needles)).toEqual([]);
      expect(await server.deps.accounts.byEmail(email)).toBeUndefined();
      expect(await server.deps.accounts.byId(live[0] as string)).toBeDefined();
    });
  },
);

describe('SqliteAccountStore.erase with another connection reading the file', () => {
  it('truncates the write-ahead log once the reader lets go, and warns meanwhile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erasure-'));
    const filename = join(dir, 'accounts.sqlite');
    const store = new SqliteAccountStore(filename);
    const reader = new Database(filename, { readonly: true });
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const account = (n: number, email: string) => ({
        id: randomUUID(),
        firstName: `Person${n}`,
        lastName: `Family${n}`,
        email,
        imageUrl: null,
        passwordHash: ['scrypt', 32768, 8, 1, b64(16), b64(32)].join('$'),
        googleSubject: null,
        createdAt: new Date().toISOString(),
      });
      for (let n = 0; n < 20; n++) await store.create(account(n, `person-${n}@example.com`));
      const victim = await store.create(account(99, 'Reader.Blocked@Example.org'));
      for (let n = 20; n < 40; n++) await store.create(account(n, `person-${n}@example.com`));
      const needles = { email: 'reader.blocked@example.org', hash: victim.passwordHash ?? '' };
      expect(traces(dir, needles)).not.toEqual([]);

      // A reader in a transaction (the sqlite3 shell, a backup) pins the snapshot that has the row.
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM accounts').get();
      await store.erase(victim.id);
      expect(await store.byId(victim.id)).toBeUndefined();
      expect(warnings).toHaveBeenCalledWith(
        expect.stringContaining('write-ahead log'),
        expect.objectContaining({ code: 'ACCOUNT_ERASE_PENDING' }),
      );

      reader.exec('COMMIT');
      await vi.waitFor(() => expect(traces(dir, needles)).toEqual([]), {
        timeout: 5000,
        interval: 100,
      });
      expect(await store.byEmail('person-39@example.com')).toBeDefined();
    } finally {
      warnings.mockRestore();
      reader.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
