import { Test } from '@nestjs/testing';
import IORedis from 'ioredis';
import { parseConfig } from '@bhis/config';
import { REDIS } from '@bhis/api-platform';
import { buildOpenApiDocument, JsonObject } from '@bhis/web';
import { AppModule } from '../app.module';

/**
 * The OpenAPI document of the real API modules. The app is created but neither initialized nor
 * listening: nothing connects to Postgres, and Redis gets a client that never connects.
 */
export async function generateOpenApiDocument(): Promise<JsonObject> {
  const config = parseConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test' });
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.register(config)] })
    .overrideProvider(REDIS)
    .useValue(new IORedis(config.REDIS_URL, { lazyConnect: true }))
    .compile();
  const app = moduleRef.createNestApplication({ logger: false });
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}
