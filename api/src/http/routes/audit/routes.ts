import { once } from 'node:events';
import { AuditParams, DomainError, auditOperations as ops, rejection } from '@auction/contracts';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import type { AppDeps } from '../../../app-deps';
import { AuctionAudit } from '../../../audit/auction-audit';
import type { AuditReader } from '../../../audit/audit-events';
import { currentUser } from '../../request-context';
import { respond } from '../../respond';
import { routesOn } from '../../route';
import { parseInput } from '../../validate';

const READ_MODEL_WAIT_MS = 5000;

// Every audit route names its auction alike (`AuditParams`), read before the reader's rights.
const auctionId = (req: Request): string => parseInput(AuditParams, req.params).id;

/** Resolves once the response can take more, or it closed (the client went away). */
const drained = async (res: Response): Promise<void> => {
  const closed = new AbortController();
  await Promise.race([
    once(res, 'drain', { signal: closed.signal }),
    once(res, 'close', { signal: closed.signal }),
  ]).finally(() => closed.abort());
};

/**
 * `/api/v1/audit/auctions/:id/{events,state,timeline,verify,export}`: for Auditors, Admins and
 * the auction's seller (as the log records them).
 */
export const auditRoutes = (deps: AppDeps): Router => {
  const router = Router();
  const route = routesOn(router, '/audit');
  const audit = new AuctionAudit({
    events: deps.events,
    read: deps.read,
    users: deps.users,
    imageUrl: deps.imageUrl,
    waitForReadModels: (position) =>
      deps.runner.waitFor(position, undefined, READ_MODEL_WAIT_MS).catch(() => undefined),
  });

  const allowed: RequestHandler = async (req, _res, next) => {
    const user = currentUser(req);
    const { sellerId } = await audit.owner(auctionId(req));
    if (user.role !== 'Auditor' && user.role !== 'Admin' && user.id !== sellerId) {
      throw new DomainError(rejection('FORBIDDEN'));
    }
    next();
  };

  // Auditors and Admins see every event as stored; a seller sees the visible prices only.
  const readerOf = (req: Request): AuditReader => {
    const { role } = currentUser(req);
    return role === 'Auditor' || role === 'Admin' ? 'auditor' : 'seller';
  };

  route(ops.events, allowed, async (req, res) => {
    const id = auctionId(req);
    const events = await audit.events(id, readerOf(req));
    respond(res, 200, 'Auction events', {
      auctionId: id,
      lastRevision: events[events.length - 1]?.revision ?? null,
      events,
    });
  });

  route(ops.state, allowed, async (req, res, { query }) => {
    const point = query();
    const state = await audit.state(auctionId(req), point, readerOf(req));
    respond(res, 200, 'Auction state', { state });
  });

  route(ops.timeline, allowed, async (req, res) => {
    const timeline = await audit.timeline(auctionId(req), readerOf(req));
    respond(res, 200, 'Auction timeline', { timeline });
  });

  route(ops.verify, allowed, async (req, res) => {
    const verification = await audit.verify(auctionId(req), readerOf(req));
    respond(
      res,
      200,
      verification.ok ? 'The auction record is intact' : verification.problems.join('; '),
      { verification },
    );
  });

  route(ops.export, allowed, async (req, res) => {
    const id = auctionId(req);
    res.status(200);
    res.attachment(`auction-${id}.ndjson`);
    res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    for await (const page of audit.eventPages(id, readerOf(req))) {
      if (res.destroyed) return;
      const lines = page.map((event) => `${JSON.stringify(event)}\n`).join('');
      if (!res.write(lines)) await drained(res);
    }
    res.end();
  });

  return router;
};
