import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { SOUNDTRACK_DECODER_CHUNKS } from "./web/pwa/messages";

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

/** The web app manifest and the service worker (web/pwa/sw.ts, built to dist/sw.js with the
 *  build's file list to precache). What is cached and what never is: docs/deploy.md. The worker
 *  is registered by web/pwa/register.ts in production builds only; the dev server has none. */
function installableApp(): Plugin[] {
  return VitePWA({
    strategies: "injectManifest",
    srcDir: "pwa",
    filename: "sw.ts",
    injectRegister: false,
    manifestFilename: "manifest.webmanifest",
    manifest: {
      id: "/",
      name: "Tone Studio",
      short_name: "Tone Studio",
      description: "Precise tones from 0 to 20000 Hz for meditation, focus, sleep and sound healing.",
      start_url: "/",
      scope: "/",
      display: "standalone",
      orientation: "any",
      background_color: "#0b1020",
      theme_color: "#0b1020",
      categories: ["music", "health", "lifestyle"],
      icons: [
        { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
        { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
        { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        { src: "/icons/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
      ],
    },
    includeAssets: ["icons/apple-touch-icon.png"],
    injectManifest: {
      // A classic script (no `type: "module"` registration needed), everything bundled in.
      rollupFormat: "iife",
      // The build: the app shell, every script and stylesheet, the engine's wasm, the worklet and
      // the export worker (the plugin adds the manifest, its icons and includeAssets). No source
      // maps, nothing from /api.
      globPatterns: ["**/*.{html,js,css,wasm}"],
      // The soundtrack decoders load only for a session with a soundtrack: cached when first used
      // (web/pwa/sw.ts), not downloaded by every install.
      // mp3-vbr-inline is the VBR encoder's Node-only copy (dsp/host/export/mp3-vbr.ts): the
      // browser never loads it.
      globIgnores: [...SOUNDTRACK_DECODER_CHUNKS.map((name) => `assets/${name}-*.js`), "assets/mp3-vbr-inline-*.js"],
      maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
    },
  });
}

// Vite root is web/; the build lands in dist/ at the repo root, which api/server.ts serves.
// `npm run dev` proxies /api to the API server (scripts/dev.mjs starts both). web/public/ holds
// the icons, copied as they are.
export default defineConfig({
  root: "web",
  publicDir: "public",
  plugins: [sonnerStylesAsFile(), ...installableApp()],
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
