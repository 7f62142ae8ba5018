import { Command, InvalidArgumentError } from 'commander';
import { ApiKeyEntity, ApiKeyInputError, createApiKey, listApiKeys, revokeApiKey } from '@bhis/db';
import { SCOPES } from '@bhis/domain';
import { CliError, withDataSource } from '../context';
import { printJson, printRows } from '../output';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('must be a positive whole number');
  return n;
}

function isoDate(value: string): Date {
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError('must be an ISO 8601 date or date-time, e.g. 2027-01-31 or 2027-01-31T12:00:00Z');
  }
  return date;
}

function describe(key: ApiKeyEntity): Record<string, unknown> {
  return {
    id: key.id,
    prefix: key.prefix,
    name: key.name,
    kind: key.kind,
    scopes: key.scopes,
    rate_limit_per_min: key.rateLimitPerMin,
    created_at: key.createdAt,
    last_used_at: key.lastUsedAt,
    expires_at: key.expiresAt,
    revoked_at: key.revokedAt,
  };
}

async function keyAction<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ApiKeyInputError) throw new CliError(error.message);
    throw error;
  }
}

export function keysCommand(): Command {
  const keys = new Command('keys').description('Create, list and revoke API keys (keys are stored only as hashes)');

  keys
    .command('create')
    .description('Create a key and print it once')
    .requiredOption('--name <name>', 'who or what the key is for')
    .option('--scopes <list>', `comma-separated scopes (${SCOPES.join(', ')})`, (v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .option('--demo', 'create a sk_demo_ key (read scopes only, low rate limit)')
    .option('--rate-limit <perMin>', 'units per minute for this key (default by kind)', positiveInt)
    .option('--expires-at <iso>', 'expiry date-time (ISO 8601)', isoDate)
    .option('--json', 'print the result as JSON')
    .action((options: { name: string; scopes?: string[]; demo?: boolean; rateLimit?: number; expiresAt?: Date; json?: boolean }) =>
      keyAction(() =>
        withDataSource(async (ds) => {
          const created = await createApiKey(ds, {
            name: options.name,
            kind: options.demo ? 'demo' : 'live',
            scopes: options.scopes,
            rateLimitPerMin: options.rateLimit ?? null,
            expiresAt: options.expiresAt ?? null,
          });
          if (options.json) return printJson({ key: created.key, ...describe(created.record) });
          process.stdout.write(
            `${created.key}\n\nStore this key now: it cannot be shown again.\n` +
              `id ${created.record.id}, prefix ${created.record.prefix}, scopes ${created.record.scopes.join(',')}\n`,
          );
        }),
      ),
    );

  keys
    .command('list')
    .description('List keys (never the keys themselves)')
    .option('--json', 'print as JSON')
    .action((options: { json?: boolean }) =>
      withDataSource(async (ds) => printRows((await listApiKeys(ds)).map(describe), Boolean(options.json))),
    );

  keys
    .command('revoke')
    .description('Revoke a key by id or prefix; effective on the next request')
    .argument('<id-or-prefix>', 'the key id (uuid) or its prefix (sk_live_xxxxxxxx)')
    .option('--json', 'print as JSON')
    .action((idOrPrefix: string, options: { json?: boolean }) =>
      keyAction(() =>
        withDataSource(async (ds) => {
          const revoked = await revokeApiKey(ds, idOrPrefix);
          if (options.json) return printJson(revoked.map(describe));
          for (const key of revoked) process.stdout.write(`Revoked ${key.prefix} (${key.name}).\n`);
        }),
      ),
    );
  return keys;
}
