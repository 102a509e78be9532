import type { Express } from "express";

export interface RegisteredRoute {
  method: string;
  /** As registered, with `:name` parameters. */
  path: string;
}

interface StackLayer {
  route?: { path: unknown; stack: Array<{ method?: string }> };
  handle: unknown;
}

function stackOf(handle: unknown): StackLayer[] {
  const stack = (handle as { stack?: unknown } | null)?.stack;
  return Array.isArray(stack) ? (stack as StackLayer[]) : [];
}

/**
 * Every route the app answers, read from Express's own stack (routers are mounted at the root,
 * so route paths are whole paths): a route added anywhere is listed without naming it here.
 */
export function registeredRoutes(app: Express): RegisteredRoute[] {
  const found = new Map<string, RegisteredRoute>();
  const walk = (layers: StackLayer[]) => {
    for (const layer of layers) {
      if (layer.route) {
        if (typeof layer.route.path !== "string") throw new Error("a route's path is not text");
        const path = layer.route.path;
        // A route answering every method (`.all` alone) is listed once, as GET.
        const methods = layer.route.stack.flatMap(({ method }) => (method ? [method.toUpperCase()] : []));
        for (const method of methods.length > 0 ? methods : ["GET"])
          found.set(`${method} ${path}`, { method, path });
      } else walk(stackOf(layer.handle));
    }
  };
  walk(stackOf(app.router));
  return [...found.values()];
}

/** A route's path with every parameter filled in by an id no row has (a call changes nothing). */
export function concretePath(path: string): string {
  return path.replace(/:[A-Za-z]+/g, "00000000-0000-4000-8000-000000000000");
}
