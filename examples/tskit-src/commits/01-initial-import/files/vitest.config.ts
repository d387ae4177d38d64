import { defineConfig } from 'vitest/config';

// Vite looks 'localhost' up when it starts; where nothing resolves it (a container without
// /etc/hosts entries) the run dies with EAI_AGAIN before any test. An address needs no lookup.
export default defineConfig({ server: { host: '127.0.0.1' } });
