/**
 * Bare Socket.IO 4, the yardstick of `bench:fanout`: a plain `socket.io` server with nothing else,
 * speaking just enough of the real server's protocol for the same client code to measure it.
 * Run as a child process (`tsx api/bench/bare-socketio.ts`) with `BARE_PAYLOAD` set to a JSON
 * `newBid` payload (the real one, captured in the same run); it prints
 * `listening on http://127.0.0.1:<port>` and, until SIGTERM:
 *   - acknowledges `auction:watch {auctionId}` with `{ok: true}` after joining `auction:{id}`;
 *   - on `POST /api/v1/bid/placeBid {productId}` broadcasts the payload to `auction:{productId}`
 *     as `newBid` (the next revision, a new bid id: the same size as the real one) and answers
 *     201 `{newBid: {_id}}`, like the real route.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';

const template = JSON.parse(process.env.BARE_PAYLOAD ?? '{}') as {
  bid?: Record<string, unknown> | null;
  [key: string]: unknown;
};
let revision = 0;

const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/api/v1/bid/placeBid') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const { productId } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      productId: string;
    };
    const bidId = randomUUID();
    const payload = {
      ...template,
      productId,
      revision: ++revision,
      bid: template.bid ? { ...template.bid, _id: bidId, auctionId: productId } : null,
    };
    io.to(`auction:${productId}`).emit('newBid', payload);
    const body = JSON.stringify({ success: true, newBid: { _id: bidId } });
    res.writeHead(201, { 'content-type': 'application/json' }).end(body);
  });
});
server.keepAliveTimeout = 65_000;

const io = new Server(server, { serveClient: false });
io.on('connection', (socket) => {
  socket.on('auction:watch', (payload: { auctionId: string }, ack: (answer: unknown) => void) => {
    void socket.join(`auction:${payload.auctionId}`);
    ack({ ok: true, revision });
  });
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`Bare Socket.IO listening on http://127.0.0.1:${port}`);
});
process.once('SIGTERM', () => void io.close(() => process.exit(0)));
