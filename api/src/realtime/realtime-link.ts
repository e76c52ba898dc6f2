import type { BroadcastChannel } from '@auction/engine';
import type { Write } from '@auction/projections';
import { z } from 'zod';

interface Gateway {
  disconnectUser(id: string): void;
  disconnectSession(id: string): void;
  projectionCommitted(projection: string, writes: readonly Write[]): void;
}

/** The projection whose new documents the gateway pushes to sockets. */
const PUSHED = 'notifications';
const CHANNEL = 'realtime';

const Remote = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('committed'), projection: z.string(), writes: z.array(z.any()) }),
  z.object({ kind: z.literal('disconnectUser'), userId: z.string() }),
  z.object({ kind: z.literal('disconnectSession'), sessionId: z.string() }),
]);
type Remote = z.infer<typeof Remote>;

/**
 * What the server may ask of the realtime gateway, a no-op until the gateway is attached. In a
 * cluster a user's sockets may be on any node, so each request is also broadcast to the other
 * nodes (at most once); auction events need no broadcast, as every gateway follows the log.
 */
export class RealtimeLink {
  private gateway: Gateway | undefined;

  constructor(
    private readonly cluster?: BroadcastChannel,
    private readonly log: (message: string, error?: unknown) => void = () => undefined,
  ) {
    cluster?.onBroadcast((message) => {
      if (message.channel !== CHANNEL) return;
      const parsed = Remote.safeParse(message.data);
      if (parsed.success) this.local(parsed.data);
    });
  }

  attach(gateway: Gateway): void {
    this.gateway = gateway;
  }

  /** Pushes what a projection just committed (new notifications) to sockets. */
  projectionCommitted(projection: string, writes: readonly Write[]): void {
    if (projection !== PUSHED) return;
    this.everywhere({ kind: 'committed', projection, writes: [...writes] });
  }

  /** Ends every socket of the user (account deletion). */
  disconnectUser(userId: string): void {
    this.everywhere({ kind: 'disconnectUser', userId });
  }

  /** Ends the sockets opened under this session (logout). */
  disconnectSession(sessionId: string): void {
    this.everywhere({ kind: 'disconnectSession', sessionId });
  }

  private everywhere(message: Remote): void {
    this.local(message);
    this.cluster
      ?.broadcast({ channel: CHANNEL, data: message })
      .catch((error: unknown) =>
        this.log(`Could not tell the other nodes: ${message.kind}`, error),
      );
  }

  private local(message: Remote): void {
    switch (message.kind) {
      case 'committed':
        this.gateway?.projectionCommitted(message.projection, message.writes as Write[]);
        break;
      case 'disconnectUser':
        this.gateway?.disconnectUser(message.userId);
        break;
      case 'disconnectSession':
        this.gateway?.disconnectSession(message.sessionId);
        break;
    }
  }
}
