import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  kind!: 'live' | 'demo';

  /** `sk_live_` + first 8 characters of the secret: identifies the key, cannot authenticate. */
  @Column({ type: 'text' })
  prefix!: string;

  /** SHA-256 of the whole key (hex). The key itself is never stored. */
  @Column({ name: 'key_hash', type: 'text' })
  keyHash!: string;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  /** Units per minute; null means the default for the key's kind. */
  @Column({ name: 'rate_limit_per_min', type: 'integer', nullable: true })
  rateLimitPerMin!: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
