import { defineConfig } from "vite";

// Vite root is web/; the build lands in dist/ at the repo root, which api/server.ts serves.
// `npm run dev` proxies /api to the API server (scripts/dev.mjs starts both).
export default defineConfig({
  root: "web",
  publicDir: false,
  build: {
    outDir: "../dist",
    emptyOutDir: true,
    target: "es2022",
    assetsInlineLimit: 0, // keep engine.wasm a separate, cacheable file
  },
  worker: { format: "es" },
  server: {
    port: 5173,
    proxy: { "/api": `http://127.0.0.1:${process.env.API_PORT ?? 8080}` },
    headers: {
      "Cross-Origin-Opener-Policy": "same-origin",
      "Cross-Origin-Embedder-Policy": "require-corp",
    },
  },
});
