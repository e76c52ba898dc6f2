import { randomUUID } from 'node:crypto';
import http2 from 'node:http2';
import { createRequire } from 'node:module';
import net from 'node:net';
import type * as ServerFeaturesPb from '@eventstore/db-client/generated/serverfeatures_pb';
import type * as SharedPb from '@eventstore/db-client/generated/shared_pb';
import type * as StreamsPb from '@eventstore/db-client/generated/streams_pb';
import { afterEach, describe, expect, it } from 'vitest';
import { describeEventStoreContract } from './contract';
import type { RecordedEvent } from './event-store';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING ?? '';

describe.skipIf(connectionString === '')('EventStoreDB server', () => {
  describeEventStoreContract('EventStoreDB', async () => {
    let store = await EventStoreDbEventStore.connect({ connectionString });
    return {
      store,
      reopen: async () => {
        await store.close();
        store = await EventStoreDbEventStore.connect({ connectionString });
        return store;
      },
      cleanup: () => store.close(),
    };
  });

  it('answers a ping', async () => {
    const store = await EventStoreDbEventStore.connect({ connectionString });
    try {
      await expect(store.ping()).resolves.toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

const require = createRequire(import.meta.url);
const { SupportedMethods } =
  require('@eventstore/db-client/generated/serverfeatures_pb') as typeof ServerFeaturesPb;
const { StreamIdentifier, UUID } =
  require('@eventstore/db-client/generated/shared_pb') as typeof SharedPb;
const { ReadReq, ReadResp } =
  require('@eventstore/db-client/generated/streams_pb') as typeof StreamsPb;

describe('EventStoreDbEventStore against a stand-in server', () => {
  const stops: (() => Promise<void>)[] = [];
  const stores: EventStoreDbEventStore[] = [];
  const at = (port: number) => `esdb://admin:s3cret@127.0.0.1:${port}?tls=false`;
  const shown = (port: number) => `esdb://127.0.0.1:${port}?tls=false`;
  const connect = async (server: StandIn) => {
    const store = await EventStoreDbEventStore.connect({ connectionString: at(server.port) });
    stores.push(store);
    return store;
  };
  const log: StandInEvent[] = [
    { streamId: '$users', type: '$UserCreated', position: 100n },
    { streamId: 'auction-1', type: 'AuctionCreated', position: 200n },
    { streamId: 'auction-1', type: 'BidPlaced', position: 300n },
    { streamId: '$$auction-1', type: '$metadata', position: 400n },
    { streamId: 'auction-2', type: 'AuctionCreated', position: 500n },
    { streamId: 'auction-1', type: 'BidPlaced', position: 600n },
    { streamId: 'auction-1', type: 'AuctionClosed', position: 700n },
    { streamId: '$stats', type: '$statsCollected', position: 800n },
  ];
  const positions = (events: readonly RecordedEvent[]) => events.map(({ position }) => position);

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await Promise.all(stops.splice(0).map((stop) => stop()));
  });

  describe('connect', () => {
    it('connects to a server of the minimum version and answers a ping', async () => {
      const server = await standIn(stops, { version: '23.10.0' });

      const store = await connect(server);

      await expect(store.ping()).resolves.toBeUndefined();
      expect(await store.headPosition()).toBeUndefined();
    });

    it('refuses an older server, naming the version it needs', async () => {
      const server = await standIn(stops, { version: '22.10.3' });

      const error = await failure(connect(server));

      expect(error.message).toBe(
        `EventStoreDB at ${shown(server.port)} reports version 22.10.3; this adapter needs 23.10 or later`,
      );
    });

    it('refuses a server too old to report its version', async () => {
      const server = await standIn(stops, { version: null });

      const error = await failure(connect(server));

      expect(error.message).toBe(
        `EventStoreDB at ${shown(server.port)} does not report its version (EventStoreDB before 21.10, or not EventStoreDB); this adapter needs 23.10 or later`,
      );
    });

    it('gives up on a server that does not answer, within the deadline', async () => {
      const port = await silentStandIn(stops);
      const started = Date.now();

      const error = await failure(
        EventStoreDbEventStore.connect({ connectionString: at(port), timeoutMs: 300 }),
      );

      expect(error.message).toBe(`EventStoreDB at ${shown(port)} did not answer within 300 ms`);
      expect(Date.now() - started).toBeLessThan(3000);
    });

    it('reports a server that cannot be reached, without the credentials', async () => {
      const port = await unusedPort();

      const error = await failure(EventStoreDbEventStore.connect({ connectionString: at(port) }));

      expect(error.message.startsWith(`EventStoreDB at ${shown(port)} failed: `)).toBe(true);
      expect(error.message).not.toContain('s3cret');
    });

    it('rejects an invalid connection string without repeating the password', async () => {
      const error = await failure(
        EventStoreDbEventStore.connect({ connectionString: 'esdb://admin:s3cret@' }),
      );

      expect(error.message).toBe('Invalid EventStoreDB connection string: esdb://');
    });
  });

  describe('reading the log', () => {
    it('asks the server to filter by event type and never reads the log unfiltered', async () => {
      const server = await standIn(stops, { log });
      const store = await connect(server);

      const bids = await store.readAll({ afterPosition: 200, eventTypes: ['BidPlaced', 'A.B'] });

      expect(positions(bids)).toEqual([300, 600]);
      expect(bids[0]).toMatchObject({ streamId: 'auction-1', type: 'BidPlaced', revision: 1 });
      const forwards = server.reads.filter((read) => read.direction === 'forwards');
      expect(forwards).toEqual([
        { direction: 'forwards', subscription: true, from: 200n, filter: '^(?:BidPlaced|A\\.B)$' },
      ]);
    });

    it('excludes system events on the server when no types are named', async () => {
      const server = await standIn(stops, { log });
      const store = await connect(server);

      const all = await store.readAll();

      expect(positions(all)).toEqual([200, 300, 500, 600, 700]);
      expect(server.reads.filter((read) => read.direction === 'forwards')).toEqual([
        { direction: 'forwards', subscription: true, from: 'start', filter: '^[^$].*' },
      ]);
      expect(await store.headPosition()).toBe(700);
    });

    it('stops at maxCount, and returns at once when nothing follows the position', async () => {
      const server = await standIn(stops, { log });
      const store = await connect(server);

      expect(positions(await store.readAll({ afterPosition: 200, maxCount: 2 }))).toEqual([
        300, 500,
      ]);
      const reads = server.reads.length;
      expect(await store.readAll({ afterPosition: 800, eventTypes: ['BidPlaced'] })).toEqual([]);
      expect(server.reads.length).toBe(reads + 1);
    });

    it('ends a read with no match once the server says it caught up', async () => {
      const server = await standIn(stops, { log });
      const store = await connect(server);

      expect(await store.readAll({ eventTypes: ['NeverWritten'] })).toEqual([]);
    });

    it('throws on positions beyond Number.MAX_SAFE_INTEGER', async () => {
      const beyond = 2n ** 53n + 2n;
      const server = await standIn(stops, {
        log: [...log, { streamId: 'auction-3', type: 'BidPlaced', position: beyond }],
      });
      const store = await connect(server);

      await expect(store.readAll({ eventTypes: ['BidPlaced'] })).rejects.toThrow(
        `EventStoreDB position ${beyond} is beyond Number.MAX_SAFE_INTEGER`,
      );
    });
  });

  describe('subscribe', () => {
    it('delivers history in batches, catches up, then delivers live events', async () => {
      const server = await standIn(stops, { log });
      const store = await connect(server);
      const received: RecordedEvent[][] = [];

      const subscription = store.subscribe({
        afterPosition: 200,
        batchSize: 2,
        onEvents: (batch) => {
          received.push([...batch]);
        },
      });
      await subscription.caughtUp;

      expect(positions(received.flat())).toEqual([300, 500, 600, 700]);
      expect(received.every((batch) => batch.length <= 2)).toBe(true);
      server.append({ streamId: 'auction-2', type: 'BidPlaced', position: 900n });
      server.append({ streamId: '$stats', type: '$statsCollected', position: 950n });
      server.append({ streamId: 'auction-2', type: 'AuctionClosed', position: 1000n });
      await waitFor(() => received.flat().length === 6);
      expect(positions(received.flat()).slice(4)).toEqual([900, 1000]);
      expect(subscription.position()).toBe(1000);
      expect(server.reads.filter((read) => read.direction === 'forwards')).toEqual([
        { direction: 'forwards', subscription: true, from: 200n, filter: '^[^$].*' },
      ]);
      await subscription.close();
    });

    it('catches up on an event at the log end even without the caught-up message', async () => {
      const server = await standIn(stops, { log, sendsCaughtUp: false });
      const store = await connect(server);
      const received: RecordedEvent[] = [];

      const subscription = store.subscribe({
        eventTypes: ['AuctionClosed', '$statsCollected'],
        onEvents: (batch) => {
          received.push(...batch);
        },
      });
      await subscription.caughtUp;

      expect(positions(received)).toEqual([700]);
      await subscription.close();
    });

    it('catches up at once after the log end, and closes while waiting for live events', async () => {
      const server = await standIn(stops, { log, sendsCaughtUp: false });
      const store = await connect(server);

      const subscription = store.subscribe({ afterPosition: 800, onEvents: () => undefined });
      await subscription.caughtUp;

      expect(subscription.position()).toBe(800);
      await subscription.close();
    });
  });
});

async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error('Expected a rejection with an Error');
  return outcome;
}

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('Timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface StandInEvent {
  readonly streamId: string;
  readonly type: string;
  readonly position: bigint;
}

interface ReadSeen {
  readonly direction: 'forwards' | 'backwards';
  readonly subscription: boolean;
  readonly from: bigint | 'start' | 'end';
  readonly filter?: string;
}

interface StandIn {
  readonly port: number;
  readonly reads: ReadSeen[];
  /** Writes an event live: open subscriptions whose filter matches receive it. */
  append(event: StandInEvent): void;
}

/**
 * Serves, over plain HTTP/2, the gRPC calls these tests make: the server's features (with
 * `version`, or UNIMPLEMENTED as servers before 21.10 answer when it is null) and `Streams.Read` of `$all` over
 * `log`: counted reads, and subscriptions that honour an event type regex and then, unless told
 * not to, say they caught up.
 */
async function standIn(
  stops: (() => Promise<void>)[],
  options: { version?: string | null; log?: readonly StandInEvent[]; sendsCaughtUp?: boolean },
): Promise<StandIn> {
  const { version = '24.10.0', sendsCaughtUp = true } = options;
  const log = [...(options.log ?? [])];
  const live = new Set<(event: StandInEvent) => void>();
  const reads: ReadSeen[] = [];
  const sessions = new Set<http2.ServerHttp2Session>();
  const server = http2.createServer();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const path = headers[':path'];
      if (path === '/event_store.client.server_features.ServerFeatures/GetSupportedMethods') {
        if (version === null) {
          stream.respond(
            { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12' },
            { endStream: true },
          );
          return;
        }
        reply(stream, [new SupportedMethods().setEventStoreServerVersion(version)]);
        return;
      }
      const request = ReadReq.deserializeBinary(Buffer.concat(chunks).subarray(5)).getOptions();
      const all = request?.getAll();
      if (request === undefined || all === undefined) throw new Error('not a read of $all');
      const position = all.getPosition();
      const from = all.hasStart()
        ? 'start'
        : all.hasEnd()
          ? 'end'
          : BigInt(position?.getPreparePosition() ?? -1);
      const regex = request.getFilter()?.getEventType()?.getRegex();
      const seen: ReadSeen = {
        direction:
          request.getReadDirection() === ReadReq.Options.ReadDirection.FORWARDS
            ? 'forwards'
            : 'backwards',
        subscription: request.hasSubscription(),
        from,
        ...(regex === undefined ? {} : { filter: regex }),
      };
      reads.push(seen);
      const after = (event: StandInEvent) =>
        from === 'start' || (from !== 'end' && event.position > from);
      if (!seen.subscription) {
        const before = (event: StandInEvent) =>
          from === 'end' || (from !== 'start' && event.position < from);
        const found =
          seen.direction === 'forwards' ? log.filter(after) : log.filter(before).reverse();
        reply(stream, found.slice(0, Number(request.getCount())).map(toResponse));
        return;
      }
      const matches = (event: StandInEvent) =>
        after(event) && (regex === undefined || new RegExp(regex).test(event.type));
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      const send = (message: { serializeBinary(): Uint8Array }) => stream.write(frame(message));
      send(
        new ReadResp().setConfirmation(
          new ReadResp.SubscriptionConfirmation().setSubscriptionId('s'),
        ),
      );
      log.filter(matches).forEach((event) => send(toResponse(event)));
      if (sendsCaughtUp) send(new ReadResp().setCaughtUp(new ReadResp.CaughtUp()));
      const onAppend = (event: StandInEvent) => {
        if (matches(event)) send(toResponse(event));
      };
      live.add(onAppend);
      stream.on('close', () => live.delete(onAppend));
    });
  });
  const port = await listen(server);
  stops.push(async () => {
    for (const session of sessions) session.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  function toResponse(event: StandInEvent): StreamsPb.ReadResp {
    const revision = log.filter(({ streamId }) => streamId === event.streamId).indexOf(event);
    const record = new ReadResp.ReadEvent.RecordedEvent()
      .setId(new UUID().setString(randomUUID()))
      .setStreamIdentifier(new StreamIdentifier().setStreamName(Buffer.from(event.streamId)))
      .setStreamRevision(String(revision))
      .setPreparePosition(String(event.position))
      .setCommitPosition(String(event.position))
      .setData(Buffer.from(JSON.stringify({ at: event.position.toString() })))
      .setCustomMetadata(Buffer.from('{}'));
    record
      .getMetadataMap()
      .set('type', event.type)
      .set('content-type', 'application/json')
      .set('created', String(BigInt(Date.now()) * 10_000n));
    return new ReadResp().setEvent(
      new ReadResp.ReadEvent().setEvent(record).setCommitPosition(String(event.position)),
    );
  }

  return {
    port,
    reads,
    append: (event) => {
      log.push(event);
      live.forEach((send) => send(event));
    },
  };
}

function reply(
  stream: http2.ServerHttp2Stream,
  messages: { serializeBinary(): Uint8Array }[],
): void {
  stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
  stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
  stream.end(Buffer.concat(messages.map(frame)));
}

function frame(message: { serializeBinary(): Uint8Array }): Buffer {
  const bytes = message.serializeBinary();
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(bytes.length, 1);
  return Buffer.concat([prefix, bytes]);
}

/** Accepts connections and never says a word. */
async function silentStandIn(stops: (() => Promise<void>)[]): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket));
  const port = await listen(server);
  stops.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return port;
}

async function unusedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function listen(server: net.Server | http2.Http2Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
