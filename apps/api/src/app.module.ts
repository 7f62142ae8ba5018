import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '@bhis/config';
import { ApiPlatformModule } from '@bhis/api-platform';

/** The API application: the platform plus the feature modules. */
@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ApiPlatformModule.forRoot(config)],
    };
  }
}
