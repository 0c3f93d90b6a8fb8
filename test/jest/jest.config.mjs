// Jest runs only the files here (SPEC §19: agUiMatchers under Jest), as native ESM against
// the built package: `npm run test:jest` (after `npm run build`). Vitest never sees them
// (its projects include test/*.test.ts and test/runtimes/*.test.ts).
export default {
  rootDir: "../..",
  testMatch: ["<rootDir>/test/jest/*.test.mjs"],
  testEnvironment: "node",
  transform: {},
  // As in vitest.config.ts: CI runs the suite beside a CPU load, where 5 s is too little.
  testTimeout: 30_000,
};
