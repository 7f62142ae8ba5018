import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { ModulesContainer } from '@nestjs/core';
import { PUBLIC_ROUTE } from './decorators';

const REMEMBERED_ANSWERS = 10_000;

interface RouteEntry {
  method: string;
  path: string;
  pattern: RegExp;
  isPublic: boolean;
}

/**
 * The Nest routes and whether they need a key, known at boot, so that a request without a valid key
 * for a route that needs one is answered 401 by the pipeline instead of by the scope guard behind
 * Nest's router. The answer is the one the guard gives (`authError`); only requests under /api/
 * whose path matches a route that needs a key and no public route are answered early.
 */
export class KeyedRoutes {
  /** Answers by method, then path, so a client repeating a request costs no pattern matching (bounded: emptied when full). */
  private readonly answers = new Map<string, Map<string, string | null>>();
  private remembered = 0;

  constructor(private readonly routes: readonly RouteEntry[]) {}

  /** The path of the route that needs a key (as Express names it), or null when the router must decide. */
  routeNeedingKey(method: string, path: string): string | null {
    if (!path.startsWith('/api/')) return null;
    const asMethod = method === 'HEAD' ? 'GET' : method;
    let byPath = this.answers.get(asMethod);
    let answer = byPath?.get(path);
    if (answer === undefined) {
      if (this.remembered >= REMEMBERED_ANSWERS) {
        this.answers.clear();
        this.remembered = 0;
        byPath = undefined;
      }
      if (!byPath) this.answers.set(asMethod, (byPath = new Map()));
      answer = this.match(asMethod, path);
      byPath.set(path, answer);
      this.remembered += 1;
    }
    return answer;
  }

  private match(asMethod: string, path: string): string | null {
    let found: string | null = null;
    for (const route of this.routes) {
      if ((route.method !== asMethod && route.method !== 'ALL') || !route.pattern.test(path)) continue;
      if (route.isPublic) return null;
      found ??= route.path;
    }
    return found;
  }

  static of(container: ModulesContainer): KeyedRoutes {
    const routes: RouteEntry[] = [];
    for (const module of container.values()) {
      for (const wrapper of module.controllers.values()) {
        const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
        if (!controller || typeof controller !== 'function') continue;
        const prefixes = paths(Reflect.getMetadata(PATH_METADATA, controller));
        const classPublic = Reflect.getMetadata(PUBLIC_ROUTE, controller) === true;
        const prototype = controller.prototype as Record<string, unknown>;
        for (const name of Object.getOwnPropertyNames(prototype)) {
          const handler = Object.getOwnPropertyDescriptor(prototype, name)?.value as unknown;
          if (name === 'constructor' || typeof handler !== 'function') continue;
          const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
          const handlerPaths = Reflect.getMetadata(PATH_METADATA, handler) as unknown;
          if (requestMethod === undefined || handlerPaths === undefined) continue;
          const handlerPublic = Reflect.getMetadata(PUBLIC_ROUTE, handler) as boolean | undefined;
          for (const prefix of prefixes) {
            for (const sub of paths(handlerPaths)) {
              const path = `/${[prefix, sub].map((p) => p.replace(/^\/+|\/+$/g, '')).filter((p) => p !== '').join('/')}`;
              routes.push({ method: RequestMethod[requestMethod], path, pattern: patternOf(path), isPublic: handlerPublic ?? classPublic });
            }
          }
        }
      }
    }
    return new KeyedRoutes(routes);
  }
}

function paths(metadata: unknown): string[] {
  if (metadata === undefined) return ['/'];
  return (Array.isArray(metadata) ? metadata : [metadata]).map(String);
}

/** `:name` segments match one segment; a path with any other syntax matches everything under its literal start. */
function patternOf(path: string): RegExp {
  const special = path.search(/[*{}()?+]/);
  const escape = (s: string): string => s.replace(/[.\\^$|[\]]/g, '\\$&');
  if (special >= 0) return new RegExp(`^${escape(path.slice(0, special)).replace(/:[A-Za-z0-9_]+/g, '[^/]+')}`);
  return new RegExp(`^${escape(path).replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`);
}
