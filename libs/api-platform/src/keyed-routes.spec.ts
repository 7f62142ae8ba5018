import { Controller, Get, Post } from '@nestjs/common';
import type { ModulesContainer } from '@nestjs/core';
import { Public } from './decorators';
import { KeyedRoutes } from './keyed-routes';

@Controller('api/v1/things')
class ThingsController {
  @Get('search')
  search(): string {
    return '';
  }

  @Get(':id')
  one(): string {
    return '';
  }

  @Post('batch')
  batch(): string {
    return '';
  }
}

@Controller('api/v1/health')
class HealthController {
  @Get()
  @Public()
  health(): string {
    return '';
  }
}

@Public()
@Controller()
class PagesController {
  @Get('api/v1/things/:id/page')
  page(): string {
    return '';
  }
}

function containerOf(...controllers: unknown[]): ModulesContainer {
  const module = { controllers: new Map(controllers.map((c, i) => [String(i), { metatype: c }])) };
  return new Map([['m', module]]) as unknown as ModulesContainer;
}

describe('KeyedRoutes', () => {
  const routes = KeyedRoutes.of(containerOf(ThingsController, HealthController, PagesController));

  it('names the route of a path that needs a key, as Express names it', () => {
    expect(routes.routeNeedingKey('GET', '/api/v1/things/42')).toBe('/api/v1/things/:id');
    expect(routes.routeNeedingKey('HEAD', '/api/v1/things/42')).toBe('/api/v1/things/:id');
    expect(routes.routeNeedingKey('POST', '/api/v1/things/batch')).toBe('/api/v1/things/batch');
  });

  it('leaves public routes, unknown paths and other spellings to the router', () => {
    expect(routes.routeNeedingKey('GET', '/api/v1/health')).toBeNull();
    expect(routes.routeNeedingKey('GET', '/api/v1/things/42/page')).toBeNull();
    expect(routes.routeNeedingKey('GET', '/api/v1/nothing')).toBeNull();
    expect(routes.routeNeedingKey('GET', '/api/v1/things/42/')).toBeNull();
    expect(routes.routeNeedingKey('GET', '/API/v1/things/42')).toBeNull();
    expect(routes.routeNeedingKey('DELETE', '/api/v1/things/42')).toBeNull();
  });
});
