/**
 * Admin rules written as steps (../store/steps.ts): the importer's kinds, the bulk seeder and the
 * demo set. `withStepClock` dates what they write with the store's clock.
 */
import { withClock } from '../store/util.js';
import type { Steps } from '../store/steps.js';

export { ask, runSteps, runStepsAsync, type Step, type Steps, type StepStore } from '../store/steps.js';

/**
 * `steps` with the store's clock (`nowIso`) answering `clock()`, so rows they do not date
 * themselves get fixed stamps on either store. The clock is set only while each step is called:
 * the repositories read it before their first await, and nothing else runs meanwhile.
 */
export function* withStepClock<T>(clock: () => string, steps: Steps<T>): Steps<T> {
  let next = steps.next();
  while (!next.done) {
    const step = next.value;
    next = steps.next(yield (store) => withClock(clock, () => step(store)));
  }
  return next.value;
}
