import { taskEnded } from '@nvcf/contracts';
import { NEXT, isTerminal } from '../src/model.js';

// ICMS and the agents read a task's end through @nvcf/contracts; the lifecycle here decides it
it("@nvcf/contracts' taskEnded names exactly the statuses nvct's lifecycle leaves no way out of", () => {
  for (const s of Object.keys(NEXT) as (keyof typeof NEXT)[]) expect([s, taskEnded(s)]).toEqual([s, isTerminal(s)]);
});
