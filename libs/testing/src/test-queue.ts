import { QueueEvents } from 'bullmq';
import { type ContractQueue, openQueue, type QueueName, workerConnection } from '@bhis/queue';

/**
 * A queue of the service under a test's Redis prefix, with its events (to wait for a job's end):
 * what a test adds jobs to and watches while a worker under test consumes them. `close` empties it.
 */
export class TestQueue<Q extends QueueName> {
  private readonly redis = workerConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  private readonly eventsConnection = this.redis.duplicate();
  readonly queue: ContractQueue<Q>;
  readonly events: QueueEvents;

  constructor(
    readonly name: Q,
    readonly prefix: string,
  ) {
    this.queue = openQueue(name, this.redis, prefix);
    this.events = new QueueEvents(name, { connection: this.eventsConnection, prefix });
  }

  /** Another handle on this queue, for a module under test that closes the queues it is given. */
  handle(): ContractQueue<Q> {
    return openQueue(this.name, this.redis, this.prefix);
  }

  ready(): Promise<void> {
    return this.events.waitUntilReady().then(() => undefined);
  }

  async close(): Promise<void> {
    await this.events.close();
    await this.queue.obliterate({ force: true });
    await this.queue.close();
    this.eventsConnection.disconnect();
    this.redis.disconnect();
  }
}
