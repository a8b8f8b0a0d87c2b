// @ts-check
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The page builds into dist/, which server.ts serves beside POST /api/chat. `npm run dev` serves
 * the page with hot reload and forwards /api to a server started with `npm run serve`.
 */
export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': `http://127.0.0.1:${process.env.PORT ?? '3000'}` } },
});
