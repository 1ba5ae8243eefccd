/**
 * Answers delivered to their askers at most `PER_TURN` per turn of the event loop. A promise's
 * callbacks all run before the loop reads any socket again, so an answer shared by thousands of
 * askers (a flood of one list joining the one read of it, see list-lane.ts) ran all of their
 * responses in one go: in the pipelined-lists trial (200 connections each pipelining 50 pages of
 * 100 customers) the loop stalled for up to 130 ms at a time, and a fresh `GET /users/1`, whose
 * round trips to PostgreSQL are each answered between two such stalls, took 100-1,000 ms. Askers
 * are served by group (one answer's askers) in turn, one asker of each group at a time, so the
 * single asker of another answer waits for at most `PER_TURN` others.
 */
export const PER_TURN = 64;

/** Groups with askers not served yet, in turn; each an array of settles and the index of its next. */
const groups: Array<{ settles: (() => void)[]; next: number }> = [];
/** Askers served since the loop last reached `serveTurn`. */
let served = 0;
let scheduled = false;

/** Serves up to `PER_TURN` waiting askers, one of each group in turn; schedules the rest. */
function serveTurn(): void {
  scheduled = false;
  served = 0;
  while (groups.length && served < PER_TURN) {
    for (let i = 0; i < groups.length && served < PER_TURN; i++) {
      const group = groups[i];
      served++;
      group.settles[group.next++]();
      if (group.next === group.settles.length) groups.splice(i--, 1);
    }
  }
  schedule();
}

function schedule(): void {
  if (scheduled || (!groups.length && served === 0)) return;
  scheduled = true;
  setImmediate(serveTurn);
}

/**
 * Calls `settles` (each resolves or rejects one asker of an answer), at once while this turn has
 * served fewer than `PER_TURN` and no group waits, the rest in later turns.
 */
export function deliver(settles: (() => void)[]): void {
  let now = 0;
  if (!groups.length) {
    now = Math.min(settles.length, PER_TURN - served);
    served += now;
    for (let i = 0; i < now; i++) settles[i]();
  }
  if (now < settles.length) groups.push({ settles, next: now });
  schedule();
}
