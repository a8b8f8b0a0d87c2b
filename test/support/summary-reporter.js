// @ts-check
/**
 * Prints one plain closing line, `jest: N passed, N failed, N skipped`, after every run so any
 * log reader (CI included) can read the outcome without parsing Jest's own summary.
 */
class SummaryReporter {
  /** @param {Set<unknown>} _contexts @param {{ numPassedTests: number, numFailedTests: number, numPendingTests: number, numTodoTests: number }} results */
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    process.stdout.write(
      `jest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`,
    );
  }
}
module.exports = SummaryReporter;
