// The Vue host app's build: Vite with the Vue plugin, as a Vue team would set it up, told that the `channel-*` tags
// are custom elements. `channel-elements` resolves to this repository's built npm entry (dist/index.js), as it would
// from node_modules after an install.
import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // The reference server's CMS host serves the built app here (server/app/listeners.ts).
  base: '/hosts/vue/',
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('channel-') } } })],
  resolve: { alias: [{ find: /^channel-elements$/, replacement: `${repo}dist/index.js` }] },
  build: { outDir: `${repo}demo/.hosts/vue`, emptyOutDir: true, chunkSizeWarningLimit: 2048 },
  // Quiet: Vite warns that the classic Stripe stand-in script is not bundled, which is the point of it.
  logLevel: 'error',
});
