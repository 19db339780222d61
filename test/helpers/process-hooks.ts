import { afterAll, afterEach, beforeEach } from 'vitest';
import { fileEnded, testEnded, testStarted } from '../../scripts/harness/processes.js';

// Registered before any hook of the test file, so these run first before and last after:
// a process a test leaves running is ended once the test's own clean-up had its chance.
beforeEach(testStarted);
afterEach(testEnded);
afterAll(fileEnded);
