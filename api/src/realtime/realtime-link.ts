import type { Write } from '@auction/projections';

interface Gateway {
  disconnectUser(id: string): void;
  disconnectSession(id: string): void;
  projectionCommitted(projection: string, writes: readonly Write[]): void;
}

/**
 * What the rest of the server may ask of the realtime gateway, which starts after the routes and
 * the projection runner exist: a no-op until the gateway is attached.
 */
export class RealtimeLink {
  private gateway: Gateway | undefined;

  attach(gateway: Gateway): void {
    this.gateway = gateway;
  }

  /** Pushes what a projection just committed (new notifications) to sockets. */
  projectionCommitted(projection: string, writes: readonly Write[]): void {
    this.gateway?.projectionCommitted(projection, writes);
  }

  /** Ends every socket of the user (account deletion). */
  disconnectUser(userId: string): void {
    this.gateway?.disconnectUser(userId);
  }

  /** Ends the sockets opened under this session (logout). */
  disconnectSession(sessionId: string): void {
    this.gateway?.disconnectSession(sessionId);
  }
}
