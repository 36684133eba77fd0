// `npm run dev`: the API server (tsx watch) on API_PORT (8787) and Vite with hot reload on 5173,
// proxying /api to it. Ctrl+C stops both.
import { spawn } from "node:child_process";

const apiPort = process.env.API_PORT || "8787";
const env = { ...process.env, PORT: apiPort, API_PORT: apiPort };
const procs = [
  spawn("npx", ["tsx", "watch", "api/server.ts"], { stdio: "inherit", env }),
  spawn("npx", ["vite"], { stdio: "inherit", env }),
];
const stop = () => {
  for (const p of procs) p.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const p of procs) p.on("exit", (code) => code && stop());
