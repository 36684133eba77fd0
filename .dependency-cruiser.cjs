// Import rules, checked by `npm run lint` (dependency-cruiser, type-only imports included):
// - no import cycles anywhere;
// - the browser (web/) imports nothing of the API but its contract, api/rules/;
// - api/rules/ imports nothing outside itself and the engine's plain model (dsp/host/model/);
// - the audio worklet and the plain model reach no zod, directly or through anything they import
//   (the worklet's bundle stays small and its code safe for the audio thread).
// docs/architecture.md explains the layers these rules keep apart.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      severity: "error",
      comment: "A loop means two modules are one, or one holds what belongs in a third.",
      from: {},
      to: { circular: true },
    },
    {
      name: "web-imports-only-api-rules",
      severity: "error",
      comment: "web/ may import api/rules/ (the API's contract) and nothing else of api/.",
      from: { path: "^web/" },
      to: { path: "^api/", pathNot: "^api/rules/" },
    },
    {
      name: "api-rules-self-contained",
      severity: "error",
      comment: "api/rules/ imports only itself and the engine's plain model.",
      from: { path: "^api/rules/" },
      to: { pathNot: ["^api/rules/", "^dsp/host/model/"] },
    },
    {
      name: "worklet-reaches-no-zod",
      severity: "error",
      comment: "The audio worklet's code (worklets/, dsp/host/engine.ts, dsp/host/model/) pulls in no zod.",
      from: { path: ["^worklets/", "^dsp/host/engine\\.ts$", "^dsp/host/model/"] },
      to: { path: "(^|/)node_modules/zod/", reachable: true },
    },
    {
      name: "model-imports-only-model",
      severity: "error",
      comment: "dsp/host/model/ is the plain model: it imports only itself.",
      from: { path: "^dsp/host/model/" },
      to: { pathNot: "^dsp/host/model/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["^dist/", "^dsp/build/", "^\\.tmp/", "^data/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".mjs", ".js", ".json"] },
  },
};
