// The React host app's build: Vite with the React plugin, as a React team would set it up. `channel-elements`
// resolves to this repository's built npm entry (dist/index.js), as it would from node_modules after an install.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // The reference server's CMS host serves the built app here (server/app/listeners.ts).
  base: '/hosts/react/',
  plugins: [react()],
  resolve: { alias: [{ find: /^channel-elements$/, replacement: `${repo}dist/index.js` }] },
  build: { outDir: `${repo}demo/.hosts/react`, emptyOutDir: true, chunkSizeWarningLimit: 2048 },
  // Quiet: Vite warns that the classic Stripe stand-in script is not bundled, which is the point of it.
  logLevel: 'error',
});
