import { defineConfig, type Plugin } from "vite";

const SONNER_CSS = "\0sonner-toasts.css";

/** sonner appends its stylesheet as an inline <style> element when it loads, which the
 *  Content-Security-Policy (style-src 'self', api/http/security-headers.ts) blocks. In the build
 *  its CSS becomes a module of its own, bundled into the app's stylesheet file instead. The dev
 *  server (no CSP) keeps sonner as it is. */
function sonnerStylesAsFile(): Plugin {
  let css: string | null = null;
  return {
    name: "sonner-styles-as-file",
    apply: "build",
    enforce: "pre",
    resolveId: (id) => (id === SONNER_CSS ? SONNER_CSS : null),
    load: (id) => (id === SONNER_CSS ? css : null),
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id)) return null;
      const call = /__insertCSS\(("(?:[^"\\]|\\.)*")\)/.exec(code);
      if (!call) this.error("sonner no longer calls __insertCSS(\"...\"): update sonnerStylesAsFile in vite.config.ts");
      css = JSON.parse(call[1]) as string;
      return { code: `import ${JSON.stringify(SONNER_CSS)};\n${code.replace(call[0], "")}`, map: null };
    },
  };
}

// Vite root is web/; the build lands in dist/ at the repo root, which api/server.ts serves.
// `npm run dev` proxies /api to the API server (scripts/dev.mjs starts both).
export default defineConfig({
  root: "web",
  publicDir: false,
  plugins: [sonnerStylesAsFile()],
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
