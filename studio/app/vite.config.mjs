// @ts-check
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * Golem Studio's app: built by `npm run build:studio` into dist/studio/app, which `createStudio`
 * serves. No React plugin: Vite's own JSX transform (oxc) with the automatic runtime
 * (`react/jsx-runtime`), as tsconfig.json's `"jsx": "react-jsx"` says. `base: './'` keeps every
 * asset URL relative, so the app works wherever the studio is mounted.
 */
export default defineConfig({
  root: here,
  base: './',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/studio/app', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // swr (under @ai-sdk/react) marks modules 'use client': meaningless in a client-only app.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
