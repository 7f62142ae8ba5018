import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { ModulesContainer } from '@nestjs/core';
import type { Scope } from '@bhis/domain';
import { PUBLIC_ROUTE, REQUIRED_SCOPE } from './decorators';

const REMEMBERED_ANSWERS = 10_000;

export interface RouteEntry {
  method: string;
  path: string;
  pattern: RegExp;
  isPublic: boolean;
  /** The scope the key needs (`@RequireScope`), if any. */
  scope: Scope | undefined;
  /** Whether the handler reads a body (`@Body()`): the only routes whose body is read at all. */
  takesBody: boolean;
}

/**
 * The Nest routes, whether they need a key, which scope and whether they take a body, known at boot,
 * so that the pipeline decides before reading a byte of a body: a request without a valid key for a
 * route that needs one is answered 401 instead of by the scope guard behind Nest's router (the
 * answer is the one the guard gives, `authError`), and a body is read only for a route that takes
 * one and a key that holds its scope. Only requests under /api/ whose path matches a route that
 * needs a key and no public route are answered early.
 */
export class KeyedRoutes {
  /** Answers by method, then path, so a client repeating a request costs no pattern matching (bounded: emptied when full). */
  private readonly answers = new Map<string, Map<string, RouteEntry | null>>();
  private remembered = 0;

  constructor(private readonly routes: readonly RouteEntry[]) {}

  /** The path of the route that needs a key (as Express names it), or null when the router must decide. */
  routeNeedingKey(method: string, path: string): string | null {
    return this.keyedRoute(method, path)?.path ?? null;
  }

  /** The route that needs a key a request goes to (the first that matches, as the router's order), or null. */
  keyedRoute(method: string, path: string): RouteEntry | null {
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

  private match(asMethod: string, path: string): RouteEntry | null {
    let found: RouteEntry | null = null;
    for (const route of this.routes) {
      if ((route.method !== asMethod && route.method !== 'ALL') || !route.pattern.test(path)) continue;
      if (route.isPublic) return null;
      found ??= route;
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
        const classScope = Reflect.getMetadata(REQUIRED_SCOPE, controller) as Scope | undefined;
        const prototype = controller.prototype as Record<string, unknown>;
        for (const name of Object.getOwnPropertyNames(prototype)) {
          const handler = Object.getOwnPropertyDescriptor(prototype, name)?.value as unknown;
          if (name === 'constructor' || typeof handler !== 'function') continue;
          const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
          const handlerPaths = Reflect.getMetadata(PATH_METADATA, handler) as unknown;
          if (requestMethod === undefined || handlerPaths === undefined) continue;
          const handlerPublic = Reflect.getMetadata(PUBLIC_ROUTE, handler) as boolean | undefined;
          const scope = (Reflect.getMetadata(REQUIRED_SCOPE, handler) as Scope | undefined) ?? classScope;
          const takesBody = readsBody(Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name));
          for (const prefix of prefixes) {
            for (const sub of paths(handlerPaths)) {
              const path = `/${[prefix, sub].map((p) => p.replace(/^\/+|\/+$/g, '')).filter((p) => p !== '').join('/')}`;
              routes.push({ method: RequestMethod[requestMethod], path, pattern: patternOf(path), isPublic: handlerPublic ?? classPublic, scope, takesBody });
            }
          }
        }
      }
    }
    return new KeyedRoutes(routes);
  }
}

/** Whether a handler's parameters include `@Body()` (Nest keys them `<paramtype>:<index>`). */
function readsBody(args: unknown): boolean {
  if (!args || typeof args !== 'object') return false;
  return Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
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
