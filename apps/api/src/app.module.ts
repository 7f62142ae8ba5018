import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '@bhis/config';
import { AdminModule } from '@bhis/admin-api';
import { ApiPlatformModule } from '@bhis/api-platform';
import { PortfolioApiModule } from '@bhis/portfolio';
import { ReadApiModule } from '@bhis/read-api';
import { WebModule } from '@bhis/web';

/** The API application: the platform plus the feature modules. */
@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ApiPlatformModule.forRoot(config), AdminModule, ReadApiModule, PortfolioApiModule, WebModule],
    };
  }
}
