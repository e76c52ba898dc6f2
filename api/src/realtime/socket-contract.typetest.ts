import type {
  AuctionSocketEvent,
  AuctionStateEvent,
  BidNotification,
  SocketAck,
} from '@auction/contracts';
import type { Probe } from '../testing/realtime';
import type { socketEventName } from './auction-events';
import type { RealtimeServer } from './gateway';

/*
 * Compile-time checks of the socket contract: `npm run typecheck` compiles this file, nothing runs
 * it. Each `@ts-expect-error` must stay an error: should the event maps stop catching a wrong
 * emit, the directive is unused and the typecheck fails here.
 */

/** The gateway's server: what it emits, to a room or to one socket, must match the contract. */
export const serverEmits = (
  io: RealtimeServer,
  name: ReturnType<typeof socketEventName>,
  event: AuctionSocketEvent,
  state: AuctionStateEvent,
  notification: BidNotification,
): void => {
  io.to('auction:a').emit(name, event);
  io.to('auction:a').emit('newBid', event);
  io.to('user:u').emit('bidNotification', notification);
  io.on('connection', (socket) => {
    socket.emit('auction:state', state);
    socket.emit(name, event);
    // @ts-expect-error the state of an auction is an AuctionStateEvent, not a revision
    socket.emit('auction:state', 5);
    // @ts-expect-error a replay sends auction events only
    socket.emit(name, state);
    // The client's events reach the server's listeners with the contract's arguments.
    socket.on('auction:watch', (watch, ack) => ack({ ok: true, auctionId: watch.auctionId }));
    // @ts-expect-error the server does not listen to its own events
    socket.on('auction:state', () => undefined);
  });
  // @ts-expect-error a notification is not an auction event
  io.to('auction:a').emit('newBid', notification);
  // @ts-expect-error nor is an auction event a notification
  io.to('user:u').emit('bidNotification', event);
  // @ts-expect-error the auction events go out under socketEventNames' names only
  io.to('auction:a').emit('BidPlaced', event);
  // @ts-expect-error an auction event name is one of socketEventNames' values, not any string
  const loose: ReturnType<typeof socketEventName> = 'bidPlaced';
  void loose;
};

/** A client (the test probe's socket, typed as the browser's): what it hears and may emit. */
export const clientSide = (p: Probe): void => {
  p.socket.on('newBid', (event) => event.revision satisfies number);
  p.socket.on('auction:state', (state) => state.auction satisfies AuctionStateEvent['auction']);
  p.socket.on('bidNotification', (notification) => notification.isRead satisfies boolean);
  p.socket.emit('auction:watch', { auctionId: 'a', afterRevision: 3 }, (ack) => {
    void (ack satisfies SocketAck);
  });
  p.socket.emit('auction:unwatch', { auctionId: 'a' });
  // @ts-expect-error an auction event is not a notification
  p.socket.on('newBid', (event: BidNotification) => event);
  // @ts-expect-error a watch names its auction
  p.socket.emit('auction:watch', { afterRevision: 3 }, () => undefined);
  // @ts-expect-error a watch asks for its answer
  p.socket.emit('auction:watch', { auctionId: 'a' });
  // @ts-expect-error clients emit only the client events
  p.socket.emit('auction:state', { productId: 'a' });
};
