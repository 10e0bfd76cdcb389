import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Built into web/dist by `npm ci` (the root package's prepare script); the server serves it at /.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: 'assets' },
});
