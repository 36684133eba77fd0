// The external programs the project runs (Chromium for the e2e tests and browser benchmarks,
// ffmpeg for the video export, ffprobe in tests and benchmarks), found in one place:
//
// 1. an explicit path: CHROMIUM_PATH, FFMPEG_PATH, FFPROBE_PATH;
// 2. the system's, on PATH (Debian's chromium, ffmpeg, ffprobe): current and faster to start;
// 3. the copy shipped inside an npm package, so that `npm install` is enough on a machine with
//    only Node: @sparticuz/chromium (a headless Chromium, brotli-compressed; unpacked once into
//    the temp directory), @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe (static builds).
//    Nothing is downloaded, at install time or later.
//
// TONE_STUDIO_BINARIES=bundled skips step 2 (to test the fallback on a machine that has the
// system programs), TONE_STUDIO_BINARIES=system skips step 3.

import { createReadStream, createWriteStream, accessSync, chmodSync, constants, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, normalize, sep } from "node:path";
import { pipeline } from "node:stream/promises";
import { brotliDecompressSync, createBrotliDecompress } from "node:zlib";

export type BinaryName = "chromium" | "ffmpeg" | "ffprobe";

export interface FoundBinary {
  name: BinaryName;
  path: string;
  /** Where it came from: the *_PATH variable, the system's PATH, or an npm package. */
  source: "env" | "system" | "bundled";
  /** Human words for `source`: "FFMPEG_PATH", "on PATH", "@ffmpeg-installer/ffmpeg 4.1.0". */
  origin: string;
  /** Extra environment the program needs (the bundled Chromium's libraries and fonts). */
  env: Record<string, string>;
}

const ENV_VARS: Record<BinaryName, string> = { chromium: "CHROMIUM_PATH", ffmpeg: "FFMPEG_PATH", ffprobe: "FFPROBE_PATH" };
const SYSTEM_NAMES: Record<BinaryName, string[]> = { chromium: ["chromium", "chromium-browser"], ffmpeg: ["ffmpeg"], ffprobe: ["ffprobe"] };
const PACKAGES: Record<BinaryName, string> = { chromium: "@sparticuz/chromium", ffmpeg: "@ffmpeg-installer/ffmpeg", ffprobe: "@ffprobe-installer/ffprobe" };

/** The fix to print when nothing was found. */
export const INSTALL_HINT: Record<BinaryName, string> = {
  chromium: "run `npm install` (it brings @sparticuz/chromium), install Debian's chromium (apt-get install chromium), or set CHROMIUM_PATH",
  ffmpeg: "run `npm install` (it brings @ffmpeg-installer/ffmpeg), install Debian's ffmpeg (apt-get install ffmpeg), or set FFMPEG_PATH",
  ffprobe: "run `npm install` (it brings @ffprobe-installer/ffprobe), install Debian's ffmpeg (apt-get install ffmpeg), or set FFPROBE_PATH",
};

const require = createRequire(import.meta.url);

type Mode = "auto" | "system" | "bundled";
function mode(): Mode {
  const m = (process.env.TONE_STUDIO_BINARIES ?? "").trim().toLowerCase();
  if (m === "" || m === "auto") return "auto";
  if (m === "system" || m === "bundled") return m;
  throw new Error(`TONE_STUDIO_BINARIES must be auto, system or bundled, got "${process.env.TONE_STUDIO_BINARIES}"`);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The first of `names` in a directory of PATH, like `command -v`. */
export function onPath(names: string[], pathVar = process.env.PATH ?? ""): string | null {
  for (const dir of pathVar.split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return null;
}

function fromEnvOrSystem(name: BinaryName): FoundBinary | null {
  const explicit = process.env[ENV_VARS[name]];
  if (explicit) return { name, path: explicit, source: "env", origin: ENV_VARS[name], env: {} };
  if (mode() === "bundled") return null;
  const found = onPath(SYSTEM_NAMES[name]);
  return found ? { name, path: found, source: "system", origin: "on PATH", env: {} } : null;
}

const uid = () => (process.getuid ? `-${process.getuid()}` : "");

/** Creates `dir` whole or not at all: `fill` writes into a private staging directory which is
 *  then renamed into place, so concurrent processes (parallel test workers) never see half of it. */
function createAtomically(dir: string, fill: (staging: string) => void): void;
function createAtomically(dir: string, fill: (staging: string) => Promise<void>): Promise<void>;
function createAtomically(dir: string, fill: (staging: string) => void | Promise<void>): void | Promise<void> {
  mkdirSync(dirname(dir), { recursive: true });
  const staging = `${dir}.partial-${process.pid}-${Math.random().toString(36).slice(2)}`;
  mkdirSync(staging);
  const place = () => {
    try {
      renameSync(staging, dir);
    } catch (err) {
      rmSync(staging, { recursive: true, force: true });
      // Another process got there first: its copy is complete, use it.
      if (!existsSync(dir)) throw err;
    }
  };
  const fail = (err: unknown) => {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  };
  try {
    const done = fill(staging);
    if (done instanceof Promise) return done.then(place, fail);
    place();
  } catch (err) {
    fail(err);
  }
}

/** `path` itself once it is executable. npm's allowScripts may have blocked the package's
 *  `chmod u+x` postinstall (the ffprobe file ships as 0644): the bit is set here instead, or, when
 *  node_modules is read-only, the program is copied into the temp directory with it. */
function executable(path: string, cacheKey: string): string {
  if (isExecutable(path)) return path;
  try {
    chmodSync(path, statSync(path).mode | 0o111);
    if (isExecutable(path)) return path;
  } catch {
    // read-only node_modules: copy below
  }
  const dir = join(tmpdir(), `tone-studio-bin${uid()}`, cacheKey);
  const copy = join(dir, path.split(sep).pop()!);
  if (!existsSync(copy)) {
    createAtomically(dir, (staging) => {
      const target = join(staging, path.split(sep).pop()!);
      copyFileSync(path, target);
      chmodSync(target, 0o755);
    });
  }
  return copy;
}

function bundledStatic(name: "ffmpeg" | "ffprobe"): FoundBinary | null {
  let installer: { path: string; version: string };
  try {
    installer = require(PACKAGES[name]) as { path: string; version: string };
  } catch {
    return null; // not installed, or no build for this platform
  }
  if (!existsSync(installer.path)) return null;
  const path = executable(installer.path, `${name}-${installer.version}`);
  return { name, path, source: "bundled", origin: `${PACKAGES[name]} (${name} ${installer.version})`, env: {} };
}

const cache = new Map<BinaryName, FoundBinary | null>();

function findStatic(name: "ffmpeg" | "ffprobe"): FoundBinary | null {
  if (!cache.has(name)) cache.set(name, fromEnvOrSystem(name) ?? (mode() === "system" ? null : bundledStatic(name)));
  return cache.get(name)!;
}

/** The ffmpeg to run, or null when there is none (the video export then answers 503). */
export function findFfmpeg(): FoundBinary | null {
  return findStatic("ffmpeg");
}

/** The ffprobe to run, or null when there is none. */
export function findFfprobe(): FoundBinary | null {
  return findStatic("ffprobe");
}

/** Like findFfmpeg / findFfprobe, but throws with the fix when there is none. */
export function requireBinary(name: "ffmpeg" | "ffprobe"): FoundBinary {
  const found = findStatic(name);
  if (!found) throw new Error(`No ${name} found: ${INSTALL_HINT[name]}.`);
  return found;
}

// ---- the bundled Chromium -------------------------------------------------------------------

/** Files of a ustar archive (as @sparticuz/chromium's .tar.br hold them) written under `dir`. */
function untar(archive: Buffer, dir: string): void {
  let offset = 0;
  let longName: string | null = null;
  const text = (start: number, length: number) => archive.toString("utf8", start, start + length).replace(/\0.*$/s, "");
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = parseInt(text(offset + 124, 12).trim() || "0", 8);
    const type = String.fromCharCode(header[156] || 48);
    const fileMode = parseInt(text(offset + 100, 8).trim() || "644", 8) & 0o777;
    const prefix = text(offset + 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${text(offset, 100)}` : text(offset, 100));
    const body = archive.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    longName = null;
    if (type === "L") {
      longName = body.toString("utf8").replace(/\0.*$/s, "");
      continue;
    }
    if (type === "x" || type === "g") {
      const path = /^\d+ path=(.*)$/m.exec(body.toString("utf8"));
      if (path) longName = path[1];
      continue;
    }
    const target = normalize(join(dir, name));
    if (!target.startsWith(dir + sep) && target !== dir) throw new Error(`archive entry outside its directory: ${name}`);
    if (type === "5") mkdirSync(target, { recursive: true });
    else if (type === "0" || type === "7") {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, body, { mode: fileMode });
    } else throw new Error(`unsupported archive entry type ${type} (${name})`);
  }
}

/** The fonts.conf the bundled Chromium reads (FONTCONFIG_PATH): the system's fonts when there
 *  are any, plus the package's Open Sans, with the cache beside them (not /tmp/fonts, which the
 *  package's own file names). */
function fontsConf(dir: string): string {
  return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>${join(dir, "fonts", "fonts")}</dir>
  <cachedir>${join(dir, "fonts-cache")}</cachedir>
</fontconfig>
`;
}

function sparticuzRoot(): { root: string; version: string } | null {
  try {
    // The package exports only its entry point (build/index.js); the archives are in bin/ beside build/.
    const root = dirname(dirname(require.resolve(PACKAGES.chromium)));
    const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
    return existsSync(join(root, "bin", "chromium.br")) ? { root, version } : null;
  } catch {
    return null;
  }
}

/** The unpacked copy's directory, also when it is not made yet. */
export function bundledChromiumDir(version: string): string {
  return join(tmpdir(), `tone-studio-chromium-${version}${uid()}`);
}

let chromiumPromise: Promise<FoundBinary | null> | null = null;

async function bundledChromium(): Promise<FoundBinary | null> {
  const pkg = sparticuzRoot();
  if (!pkg) return null;
  const dir = bundledChromiumDir(pkg.version);
  const binary = join(dir, "chromium");
  const complete = () => isExecutable(binary) && existsSync(join(dir, "fonts", "fonts.conf")) && existsSync(join(dir, "al2023", "lib"));
  if (!complete()) {
    // A partial copy (the temp cleaner took files) is replaced; a complete one is never touched.
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    const bin = join(pkg.root, "bin");
    await createAtomically(dir, async (staging) => {
      await pipeline(createReadStream(join(bin, "chromium.br")), createBrotliDecompress(), createWriteStream(join(staging, "chromium"), { mode: 0o755 }));
      // SwiftShader (libEGL, libGLESv2, Vulkan) beside the binary, where Chromium looks for it.
      untar(brotliDecompressSync(readFileSync(join(bin, "swiftshader.tar.br"))), staging);
      untar(brotliDecompressSync(readFileSync(join(bin, "fonts.tar.br"))), join(staging, "fonts"));
      // NSS and expat, which a machine without a browser may lack (built for Amazon Linux 2023,
      // glibc 2.34, as the Chromium is).
      untar(brotliDecompressSync(readFileSync(join(bin, "al2023.tar.br"))), join(staging, "al2023"));
      writeFileSync(join(staging, "fonts", "fonts.conf"), fontsConf(dir));
    });
  }
  const libs = join(dir, "al2023", "lib");
  return {
    name: "chromium",
    path: binary,
    source: "bundled",
    origin: `${PACKAGES.chromium} ${pkg.version}`,
    env: {
      LD_LIBRARY_PATH: [libs, process.env.LD_LIBRARY_PATH].filter(Boolean).join(delimiter),
      FONTCONFIG_PATH: join(dir, "fonts"),
    },
  };
}

/** The Chromium to drive (unpacking the bundled one on first use, about 3 s), or null. */
export function findChromium(): Promise<FoundBinary | null> {
  chromiumPromise ??= (async () => fromEnvOrSystem("chromium") ?? (mode() === "system" ? null : bundledChromium()))();
  return chromiumPromise;
}

/** One line naming the program, its path and where it came from. */
export function describeBinary(name: BinaryName, found: FoundBinary | null): string {
  if (!found) return `${name}: none found (${INSTALL_HINT[name]})`;
  const why = found.source === "bundled" && mode() === "bundled" ? ", TONE_STUDIO_BINARIES=bundled" : found.source === "bundled" ? `, no ${name} on PATH` : "";
  return `${name}: ${found.path} (${found.source}: ${found.origin}${why})`;
}
