import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with the plain line `N passed, N failed` (and `, N skipped`) that CI reads, counted over
 * every test case; an unhandled error counts as a failure so that a broken run never looks green. Each
 * skipped suite is named above it, with why (machine-needs.ts puts the missing tool in its name), so that a
 * skip is seen rather than counted.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    const skippedSuites = new Set<string>();
    for (const testModule of testModules) {
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0) failed += 1;
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else {
          skipped += 1;
          // Only suites skipped for a missing need (machine-needs.ts names them so), not those `-t` filtered out.
          const suite = testCase.parent.type === 'suite' ? testCase.parent.name : testCase.name;
          if (/\(no .+ on this machine\)$/.test(suite))
            skippedSuites.add(`${testModule.moduleId.replace(`${testModule.project.config.root}/`, '')} > ${suite}`);
        }
      }
    }
    for (const suite of skippedSuites) process.stdout.write(`\nskipped: ${suite}`);
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`);
  }
}
