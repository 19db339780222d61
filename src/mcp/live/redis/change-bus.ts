import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ChangeBus } from '../shared-watch.js';

interface Channel {
  handlers: Set<(message: string) => void>;
  subscribed: Promise<unknown>;
}

/**
 * Redis pub/sub for the watches of every key this process serves: publishes on the commands
 * connection, and hears on one connection of its own (a subscribed connection runs no other
 * command), made at the first subscription. Each channel is subscribed to once, however many
 * watches hear it, and left when the last stops. ioredis subscribes again after a reconnect.
 */
export class RedisChangeBus implements ChangeBus {
  private subscriber: Redis | Cluster | null = null;
  private readonly channels = new Map<string, Channel>();

  constructor(
    private readonly commands: Redis | Cluster,
    private readonly log: Logger,
  ) {}

  async publish(channel: string, message: string): Promise<void> {
    await this.commands.publish(channel, message);
  }

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<() => void> {
    let c = this.channels.get(channel);
    if (!c) {
      const made: Channel = { handlers: new Set(), subscribed: this.connection().subscribe(channel) };
      made.subscribed.catch(() => {
        if (this.channels.get(channel) === made) this.channels.delete(channel);
      });
      this.channels.set(channel, made);
      c = made;
    }
    const held = c;
    held.handlers.add(onMessage);
    try {
      await held.subscribed;
    } catch (err) {
      held.handlers.delete(onMessage);
      throw err;
    }
    return () => this.leave(channel, held, onMessage);
  }

  private leave(channel: string, c: Channel, onMessage: (message: string) => void): void {
    c.handlers.delete(onMessage);
    if (c.handlers.size > 0 || this.channels.get(channel) !== c) return;
    this.channels.delete(channel);
    this.subscriber?.unsubscribe(channel).catch((err: unknown) => this.log.debug({ err, channel }, 'watch: unsubscribing failed'));
  }

  private connection(): Redis | Cluster {
    if (this.subscriber) return this.subscriber;
    const sub = this.commands.duplicate();
    // Its failures are the commands connection's too, which the limiter reports.
    sub.on('error', (err: unknown) => this.log.debug({ err }, 'watch: the change subscriber failed'));
    sub.on('message', (channel: string, message: string) => {
      for (const h of [...(this.channels.get(channel)?.handlers ?? [])]) h(message);
    });
    this.subscriber = sub;
    return sub;
  }

  /** Shutdown: the subscriber connection closes (the commands connection is the limiter store's). */
  close(): void {
    this.channels.clear();
    this.subscriber?.disconnect();
    this.subscriber = null;
  }
}
