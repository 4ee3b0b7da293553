/**
 * What one check of one visitor's file may spend inside the checking process: a number of steps (objects
 * visited, parts read, entries listed). Every walk counts its steps here and keeps a visited set for the whole
 * walk, so a file that names the same thing many times (a PDF action chain that doubles at every level, an object
 * defined 40,000 times) costs what its size does, and a file that would cost more is refused. The wall-clock
 * limit and the memory ceiling are the runner's (index.server.ts): they hold even where a library's own loop
 * cannot count steps.
 */
export class BudgetExhausted extends Error {
  override name = "BudgetExhausted";
}

export class StepBudget {
  private left: number;

  constructor(readonly steps: number) {
    this.left = steps;
  }

  /** Spends `n` steps; throws BudgetExhausted once the budget is gone. */
  spend(n = 1): void {
    this.left -= n;
    if (this.left < 0) throw new BudgetExhausted(`more than ${this.steps} steps`);
  }

  get spent(): number {
    return this.steps - this.left;
  }
}

/**
 * Steps for one file. A real 10 MB PDF has some hundred thousand objects and each is visited once or twice; a
 * DOCX has a few hundred parts. Ten million is far above any real document and a few seconds of work at most.
 */
export const FILE_CHECK_STEPS = 10_000_000;
