import 'reflect-metadata';
import { loadConfigOrExit, startOrExit } from '@bhis/config';
import { createApiApp } from '@bhis/api-platform';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const app = await createApiApp(AppModule.register(config), config);
  await app.listen(config.PORT, config.HOST);
}

void startOrExit(main);
