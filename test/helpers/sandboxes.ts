// The sandbox helpers live in scripts/lib (the measurement scripts use them too, and scripts/
// never imports test/); re-exported here so the tests keep their one import path.
export * from '../../scripts/lib/sandboxes.js';
