import { setImmediate as yieldToEventLoop } from "node:timers/promises";

/**
 * Work written once as steps (a generator that yields between slices of a few milliseconds), run
 * either at once, when a request needs the result now, or a slice per turn of the event loop,
 * when it is prepared ahead beside requests being answered: on two busy cores a 20-60 ms turn
 * of the answering thread delayed requests by 60-100 ms.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs the steps to their end in this turn. */
export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** Runs the steps, a slice per turn of the event loop. */
export async function runInSlices<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    await yieldToEventLoop();
  }
}
