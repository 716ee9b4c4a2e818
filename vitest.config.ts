import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // Every test file: HOME, XDG_* in temporary folders, no ENERGY_* from the developer's shell.
    setupFiles: ['./test/setup/isolated-env.ts'],
    pool: 'forks',
    // Room for a loaded 2-core machine: e2e tests spawn the CLI against a real server.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two projects: `npm run test:unit` (no build, no CLI spawned) and `npm run test:e2e` (the built
    // bin/energy.js against real servers); `npm test` and CI run both.
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] },
      },
    ],
  },
});
