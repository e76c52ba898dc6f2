/**
 * `npm run audit -- <auctionId> [--at <ISO> | --revision N] [--verify] [--export <file>]`, or
 * `npm run audit -- --check <file>` (an export's hash chain, no store). Safe while the server runs.
 * Exit codes: 0 ok (read models only behind the log count as ok), 1 a problem found, 2 bad usage.
 */
import { once } from 'node:events';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  AuditEvent,
  AuditPoint,
  type AuditState,
  type AuditVerification,
  DomainError,
  Id,
  type PublicUser,
  dollarsToCents,
  formatCents,
  deletedUser,
} from '@auction/contracts';
import type { UserDirectory } from '@auction/projections';
import { AuctionAudit } from '../audit/auction-audit';
import { checkShownChain } from '../audit/audit-verify';
import { loadConfig } from '../config/config';
import { openAccounts, openLogAndReadModels } from '../server/open-stores';

const usage = [
  'usage: npm run audit -- <auctionId> [--at <ISO time> | --revision <N>] [--verify] [--export <file>]',
  '       npm run audit -- --check <exported file>',
].join('\n');

const MAIN_AMOUNT: Record<string, string> = {
  AuctionCreated: 'startingPrice',
  AuctionEdited: 'startingPrice',
  BidPlaced: 'amount',
  BidEdited: 'amount',
  BidRetracted: 'amount',
  AuctionClosed: 'finalPrice',
};

const nobody: UserDirectory = {
  lookup: (ids) => Promise.resolve(new Map(ids.map((id) => [id, deletedUser(id)]))),
};

const usd = (dollars: number): string => formatCents(dollarsToCents(dollars));

const nameOf = (user: PublicUser | null): string =>
  user === null ? '-' : `${user.firstName} ${user.lastName} (${user._id})`;

const timelineLine = (event: AuditEvent, users: ReadonlyMap<string, PublicUser>): string => {
  const field = MAIN_AMOUNT[event.type];
  const cents =
    field !== undefined && typeof event.data === 'object' && event.data !== null
      ? (event.data as Record<string, unknown>)[field]
      : undefined;
  const amount = typeof cents === 'number' ? formatCents(cents) : '';
  const who =
    event.actorId === null
      ? '?'
      : event.actorId === 'system'
        ? 'system'
        : nameOf(users.get(event.actorId) ?? deletedUser(event.actorId));
  return [
    `#${event.revision}`.padEnd(6),
    (event.at ?? '?').padEnd(25),
    event.type.padEnd(17),
    `by ${who}`.padEnd(60),
    amount.padStart(18),
    `  ${(event.hash ?? '?').slice(0, 12)}`,
  ].join('');
};

const printState = (state: AuditState): void => {
  const where =
    state.revision === null
      ? 'before the first event'
      : `at revision ${state.revision} of ${state.lastRevision ?? '?'} (${state.at ?? '?'})`;
  console.log(`\nState ${where}`);
  console.log(`  status        ${state.status}`);
  console.log(`  title         ${state.title}`);
  console.log(`  seller        ${nameOf(state.seller)}`);
  console.log(`  starting      ${usd(state.startingPrice)}`);
  console.log(`  ends          ${state.endsAt ?? '-'}`);
  console.log(`  current bid   ${usd(state.currentBid)}`);
  console.log(`  leader        ${nameOf(state.leader)}`);
  if (state.winner) {
    console.log(`  winner        ${nameOf(state.winner)} at ${usd(state.finalPrice ?? 0)}`);
  }
  console.log(`  bids (${state.bids.length} standing, highest first)`);
  for (const bid of state.bids) {
    console.log(`    ${usd(bid.amount).padStart(18)}  ${nameOf(bid.bidder)}  ${bid.createdAt}`);
  }
};

const printVerification = (verification: AuditVerification): void => {
  console.log(
    `\nVerification: ${
      verification.problems.length > 0
        ? 'PROBLEMS FOUND'
        : verification.behind.length > 0
          ? `OK so far: ${verification.behind.join(', ')} behind the log, not compared yet`
          : 'OK'
    }`,
  );
  const { chain, truncation, readModels } = verification;
  console.log(
    chain.ok
      ? `  hash chain    intact over ${chain.length} events, head ${chain.headHash?.slice(0, 12) ?? 'withheld'}`
      : `  hash chain    BROKEN at revision ${chain.brokenAt} (${chain.reason})`,
  );
  console.log(`  truncation    ${truncation.ok ? 'none seen' : 'FOUND'}: ${truncation.message}`);
  for (const p of readModels.projections) {
    console.log(
      `  ${p.name.padEnd(13)} ${p.behind ? 'BEHIND, not compared' : `${p.documents} documents compared`}`,
    );
  }
  for (const d of readModels.differences) {
    const where = `${d.collection}/${d.documentId}${d.path === '' ? '' : ` ${d.path}`}`;
    console.log(
      `  DIFFERENT     ${where} (${d.kind}): stored ${JSON.stringify(d.stored)}, replayed ${JSON.stringify(d.replayed)}`,
    );
  }
  if (readModels.omitted > 0) console.log(`  ... and ${readModels.omitted} more differences`);
  for (const problem of verification.problems) console.log(`  problem: ${problem}`);
};

const exportTo = async (audit: AuctionAudit, auctionId: string, file: string): Promise<number> => {
  const out = createWriteStream(file, { flags: 'w' });
  const failed = once(out, 'error').then(([error]) => {
    throw error;
  });
  let count = 0;
  const write = async () => {
    for await (const page of audit.eventPages(auctionId)) {
      count += page.length;
      if (!out.write(page.map((event) => `${JSON.stringify(event)}\n`).join(''))) {
        await once(out, 'drain');
      }
    }
    out.end();
    await once(out, 'finish');
  };
  await Promise.race([write(), failed]);
  return count;
};

/** `--check`: the chain of an exported file, one event per line. */
const checkExport = (file: string): number => {
  let events: AuditEvent[];
  try {
    events = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line, index) => {
        const parsed = AuditEvent.safeParse(JSON.parse(line));
        if (!parsed.success) throw new Error(`line ${index + 1} is not an exported event`);
        return parsed.data;
      });
  } catch (error) {
    console.error(`${file}: ${(error as Error).message}`);
    return 2;
  }
  const chain = checkShownChain(events);
  const stream = events[0]?.streamId ?? '(empty)';
  if (!chain.ok) {
    console.log(`${stream}: hash chain BROKEN at revision ${chain.brokenAt} (${chain.reason})`);
    return 1;
  }
  console.log(
    chain.withheldFrom === null
      ? `${stream}: hash chain intact over ${chain.length} events, head ${chain.headHash ?? '-'}`
      : `${stream}: hash chain intact over revisions 0 to ${chain.withheldFrom - 1}; from revision ${chain.withheldFrom} the hashes are withheld (sealed before commitments, they would give away a maximum)`,
  );
  return 0;
};

type Options = { verify: boolean; export?: string | undefined };
type Command =
  | { kind: 'usage'; message: string }
  | { kind: 'check'; file: string }
  | { kind: 'audit'; auctionId: string; point: AuditPoint; options: Options };

/** What the arguments ask for, or the usage error to print. */
const commandOf = (args: readonly string[]): Command => {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        at: { type: 'string' },
        revision: { type: 'string' },
        verify: { type: 'boolean', default: false },
        export: { type: 'string' },
        check: { type: 'string' },
      },
    });
  } catch (error) {
    return { kind: 'usage', message: `${(error as Error).message}\n${usage}` };
  }
  const { values, positionals } = parsed;
  if (values.check !== undefined)
    return positionals.length > 0 || values.check.trim() === ''
      ? { kind: 'usage', message: usage }
      : { kind: 'check', file: values.check };
  const [auctionId, ...extra] = positionals;
  if (auctionId === undefined || extra.length > 0 || !Id.safeParse(auctionId).success)
    return { kind: 'usage', message: usage };
  if (values.export !== undefined && values.export.trim() === '')
    return { kind: 'usage', message: `--export needs a file name\n${usage}` };
  const point = AuditPoint.safeParse({ revision: values.revision, at: values.at });
  if (!point.success)
    return {
      kind: 'usage',
      message: `${point.error.issues[0]?.message ?? 'Invalid point'}\n${usage}`,
    };
  return {
    kind: 'audit',
    auctionId,
    point: point.data,
    options: { verify: values.verify, export: values.export },
  };
};

/** Prints the timeline, the state at the point, and what the options ask; the exit code. */
const report = async (
  audit: AuctionAudit,
  users: UserDirectory,
  auctionId: string,
  point: AuditPoint,
  options: Options,
): Promise<number> => {
  await audit.owner(auctionId);
  const events = await audit.events(auctionId);
  const actors = [...new Set(events.flatMap((e) => (e.actorId === null ? [] : [e.actorId])))];
  const names = await users.lookup(actors);
  console.log(`Auction ${auctionId}: ${events.length} events`);
  for (const event of events) console.log(timelineLine(event, names));
  let code = 0;
  try {
    printState(await audit.state(auctionId, point));
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'EVENT_UNREADABLE') throw error;
    console.log(`\n${error.message}`);
    code = 1;
  }
  if (options.verify) {
    const verification = await audit.verify(auctionId);
    printVerification(verification);
    // A read model that is only behind is lag, not a finding: exit 0 unless something differs.
    if (verification.problems.length > 0) code = 1;
  }
  if (options.export !== undefined) {
    const count = await exportTo(audit, auctionId, options.export);
    console.log(`\nExported ${count} events to ${options.export}`);
  }
  return code;
};

const main = async (args: readonly string[]): Promise<number> => {
  const command = commandOf(args);
  if (command.kind === 'usage') {
    console.error(command.message);
    return 2;
  }
  if (command.kind === 'check') return checkExport(command.file);
  const config = loadConfig();
  const embedded = (file: string) => join(config.DATA_DIR, file);
  if (config.EVENTSTORE_CONNECTION_STRING === undefined && !existsSync(embedded('events.sqlite'))) {
    console.error(`No event log in ${config.DATA_DIR} (set DATA_DIR)`);
    return 2;
  }
  const stores = await openLogAndReadModels(config);
  const accounts =
    config.MONGODB_URL !== undefined || existsSync(embedded('accounts.sqlite'))
      ? await openAccounts(config)
      : undefined;
  const users = accounts?.accounts ?? nobody;
  const audit = new AuctionAudit({ events: stores.events, read: stores.read, users });
  try {
    return await report(audit, users, command.auctionId, command.point, command.options);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    console.error(error.message);
    return 2;
  } finally {
    await accounts?.close();
    await stores.close();
  }
};

process.exitCode = await main(process.argv.slice(2));
