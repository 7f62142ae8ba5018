import { Client } from 'pg';

/** Channels announced by the triggers of migration 1763700700000 at the commit of every change. */
export const CHANGE_CHANNELS = {
  apiKeys: 'bhis_api_keys_changed',
  buildingDocuments: 'bhis_building_documents_changed',
  events: 'bhis_events_changed',
} as const;

export type ChangeChannel = (typeof CHANGE_CHANNELS)[keyof typeof CHANGE_CHANNELS];

export interface ChangeListenerOptions {
  applicationName?: string;
  /** Wait before reconnecting after the connection is lost. */
  retryMs?: number;
  /** How often the connection is probed, so that a silently dead one is noticed. */
  probeMs?: number;
}

/**
 * Listens for change notifications on one dedicated connection. While the connection is not up, a
 * change could go unseen, so `isLive()` is false and every channel counts as changed whenever the
 * connection is lost or established again: caches built on it serve from memory only while it is live.
 */
export class ChangeListener {
  private client: Client | null = null;
  private live = false;
  private stopped = true;
  private retryTimer: NodeJS.Timeout | undefined;
  private probeTimer: NodeJS.Timeout | undefined;
  private readonly handlers = new Map<ChangeChannel, Set<() => void>>();

  constructor(
    private readonly url: string,
    private readonly options: ChangeListenerOptions = {},
  ) {}

  isLive(): boolean {
    return this.live;
  }

  /** Calls `handler` on every change of the channel and whenever the connection is lost or back. */
  onChange(channel: ChangeChannel, handler: () => void): void {
    let set = this.handlers.get(channel);
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.connect();
    this.probeTimer = setInterval(() => void this.probe(), this.options.probeMs ?? 15_000);
    this.probeTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.probeTimer);
    const client = this.client;
    this.client = null;
    this.setLive(false);
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.url, application_name: this.options.applicationName ?? 'bhis-listener', keepAlive: true });
    this.client = client;
    client.on('notification', (message) => this.changed(message.channel as ChangeChannel));
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      for (const channel of Object.values(CHANGE_CHANNELS)) await client.query(`LISTEN ${channel}`);
      if (this.client === client) this.setLive(true);
    } catch {
      this.lost(client);
    }
  }

  private async probe(): Promise<void> {
    const client = this.client;
    if (!client || !this.live) return;
    const timeout = setTimeout(() => this.lost(client), 5_000);
    try {
      await client.query('SELECT 1');
    } catch {
      this.lost(client);
    } finally {
      clearTimeout(timeout);
    }
  }

  private lost(client: Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.setLive(false);
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => void this.connect(), this.options.retryMs ?? 1_000);
    this.retryTimer.unref();
  }

  private setLive(live: boolean): void {
    this.live = live;
    for (const channel of this.handlers.keys()) this.changed(channel);
  }

  private changed(channel: ChangeChannel): void {
    for (const handler of this.handlers.get(channel) ?? []) handler();
  }
}
