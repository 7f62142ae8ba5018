import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Scope } from '@bhis/domain';
import { platformState } from './request-context';

/**
 * The common case of a GET route answered right after the key check and the rate-limit charge, ahead
 * of the Express router and Nest (docs/adr/0010-request-pipeline-order.md). A shortcut answers only
 * what it can answer exactly as the route's controller would (e.g. a building whose document is in
 * memory); everything else (parameters to validate, data to load, errors) goes on to the controller.
 */
export interface RouteShortcut {
  /** The route as the router spells it (`/api/v1/buildings/:bbl`): the metric label of its answers. */
  readonly route: string;
  /** The scope the route requires; a key without it goes on to the router (403 there). */
  readonly scope: Scope;
  /** Answers the request and returns true, or returns false without having touched the response. */
  tryAnswer(req: Request, res: Response): boolean;
}

/** The shortcuts feature modules register at start-up, tried for GET requests with a valid key. */
@Injectable()
export class RouteShortcuts {
  private readonly shortcuts: RouteShortcut[] = [];

  register(shortcut: RouteShortcut): void {
    this.shortcuts.push(shortcut);
  }

  /** True when a shortcut answered the request. */
  tryAnswer(req: Request, res: Response): boolean {
    if (req.method !== 'GET' || this.shortcuts.length === 0) return false;
    const state = platformState(req);
    if (state.auth.state !== 'valid') return false;
    for (const shortcut of this.shortcuts) {
      if (!state.auth.key.scopes.includes(shortcut.scope)) continue;
      state.route = shortcut.route;
      if (shortcut.tryAnswer(req, res)) return true;
      state.route = undefined;
    }
    return false;
  }
}
