import { configDefaults, defineConfig } from 'vitest/config';
import base, { LIVE_EDIT_SUITES } from './vitest.config.js';

/**
 * `npm run test:serial`: the live edit suites, one file at a time, apart from `npm test`. Two of
 * their cases fail about every other run today, open defects of live edit: a .NET edit of the
 * statement a stopped frame is on, continued, can crash the program (NullReferenceException or
 * ExecutionEngineException in external code); a ts-node program can report an untouched file as
 * changed. They stay here, visible, until fixed.
 */
export default defineConfig({
  test: { ...base.test, include: LIVE_EDIT_SUITES, exclude: configDefaults.exclude, maxWorkers: 1 },
});
