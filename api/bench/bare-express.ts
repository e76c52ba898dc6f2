/**
 * Bare Express 5 with one JSON route, the yardstick of `bench:http`: the same client and
 * concurrency get `trivialRatio` = the real server's trivial route ÷ this. Run as a child process
 * (`tsx api/bench/bare-express.ts`); it prints `listening on http://127.0.0.1:<port>` and serves
 * `GET /api/v1/auth/me` with a small JSON body, like the real route's, until SIGTERM.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

const user = {
  _id: '00000000-0000-4000-8000-000000000000',
  id: '00000000-0000-4000-8000-000000000000',
  name: 'First Last',
  firstName: 'First',
  lastName: 'Last',
  email: 'bidder@example.com',
  role: 'User',
  image: null,
  createdAt: new Date(0).toISOString(),
};

const app = express();
app.get('/api/v1/auth/me', (_req, res) => {
  res.status(200).json({ success: true, message: 'OK', user });
});
const server = createServer(app);
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`Bare Express listening on http://127.0.0.1:${port}`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
