import { DataSource, IsNull } from 'typeorm';
import { ApiKeyKind, DEFAULT_LIVE_SCOPES, DEMO_SCOPES, generateApiKey, isScope, Scope } from '@bhis/domain';
import { ApiKeyEntity } from './entities/api-key.entity';

export interface CreateApiKeyInput {
  name: string;
  kind: ApiKeyKind;
  scopes?: string[];
  rateLimitPerMin?: number | null;
  expiresAt?: Date | null;
}

export interface CreatedApiKey {
  /** Shown once. */
  key: string;
  record: ApiKeyEntity;
}

export class ApiKeyInputError extends Error {}

/** Validates scopes for a kind of key: demo keys may hold only the demo read scopes. */
export function resolveScopes(kind: ApiKeyKind, requested?: string[]): Scope[] {
  const scopes = requested && requested.length > 0 ? requested : kind === 'demo' ? DEMO_SCOPES : DEFAULT_LIVE_SCOPES;
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) throw new ApiKeyInputError(`Unknown scope(s): ${unknown.join(', ')}`);
  if (kind === 'demo') {
    const notAllowed = scopes.filter((s) => !DEMO_SCOPES.includes(s as Scope));
    if (notAllowed.length) {
      throw new ApiKeyInputError(`A demo key may only hold ${DEMO_SCOPES.join(', ')}; not ${notAllowed.join(', ')}`);
    }
  }
  return [...new Set(scopes as Scope[])].sort();
}

export async function createApiKey(ds: DataSource, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const name = input.name.trim();
  if (!name) throw new ApiKeyInputError('A key needs a name');
  if (input.rateLimitPerMin !== undefined && input.rateLimitPerMin !== null && !(input.rateLimitPerMin > 0)) {
    throw new ApiKeyInputError('The rate limit must be a positive number of units per minute');
  }
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) {
    throw new ApiKeyInputError('The expiry must be in the future');
  }
  const scopes = resolveScopes(input.kind, input.scopes);
  const generated = generateApiKey(input.kind);
  const repo = ds.getRepository(ApiKeyEntity);
  const record = await repo.save(
    repo.create({
      name,
      kind: input.kind,
      prefix: generated.prefix,
      keyHash: generated.hash,
      scopes,
      rateLimitPerMin: input.rateLimitPerMin ?? null,
      expiresAt: input.expiresAt ?? null,
    }),
  );
  return { key: generated.key, record };
}

export function listApiKeys(ds: DataSource): Promise<ApiKeyEntity[]> {
  return ds.getRepository(ApiKeyEntity).find({ order: { createdAt: 'ASC' } });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Revokes a key by id or by its prefix (`sk_live_abcd1234`). Returns the revoked keys. */
export async function revokeApiKey(ds: DataSource, idOrPrefix: string): Promise<ApiKeyEntity[]> {
  const repo = ds.getRepository(ApiKeyEntity);
  const where = UUID.test(idOrPrefix) ? { id: idOrPrefix } : { prefix: idOrPrefix };
  const found = await repo.find({ where: { ...where, revokedAt: IsNull() } });
  if (found.length === 0) {
    const any = await repo.count({ where });
    throw new ApiKeyInputError(any ? `Key ${idOrPrefix} is already revoked` : `No key matches ${idOrPrefix}`);
  }
  const now = new Date();
  for (const key of found) key.revokedAt = now;
  await repo.save(found);
  return found;
}
