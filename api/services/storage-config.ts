// Which file store the server uses: the local directory DATA_DIR/files by default, or an
// S3-compatible object store when STORAGE_URL=s3://bucket/prefix is set (S3_ENDPOINT for a
// non-AWS server, AWS_REGION, credentials from the SDK's standard chain). Parsed once at start,
// so a bad URL stops the server with a clear message instead of failing the first upload. The
// AWS SDK is loaded only when a bucket is configured.
import { join } from "node:path";
import { type FileStorage, localStorage, type S3Location } from "./storage";


export type StorageConfig =
  | { kind: "local" }
  | ({ kind: "s3"; endpoint?: string; region: string } & S3Location);

export const DEFAULT_S3_REGION = "us-east-1";

/** Bucket names as S3 allows them: 3-63 lower-case letters, digits, dots and hyphens. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** STORAGE_URL s3://bucket/prefix -> bucket and prefix; throws a start-up error for anything else. */
export function parseStorageUrl(value: string): S3Location {
  const bad = (why: string) => new Error(`STORAGE_URL must look like s3://bucket/prefix (${why}), got "${value}"`);
  const m = /^s3:\/\/([^/?#]*)(\/[^?#]*)?$/i.exec(value.trim());
  if (!m) throw bad("an s3:// URL with no query or fragment");
  const [, bucket, path = ""] = m;
  if (!BUCKET.test(bucket) || bucket.includes("..")) throw bad("the bucket name must be 3-63 lower-case letters, digits, dots or hyphens");
  const parts = path.split("/").filter(Boolean);
  if (parts.some((p) => p === "." || p === ".." || !/^[A-Za-z0-9._-]+$/.test(p))) {
    throw bad("prefix folders may hold letters, digits, dots, hyphens and underscores");
  }
  return { bucket, prefix: parts.length ? `${parts.join("/")}/` : "" };
}

/** S3_ENDPOINT: an http(s) origin such as http://127.0.0.1:9000. */
export function parseS3Endpoint(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.pathname.replace(/\/+$/, "") !== "" || url.search) {
    throw new Error(`S3_ENDPOINT must be an http(s) origin such as http://127.0.0.1:9000, got "${value}"`);
  }
  return url.origin;
}

/** STORAGE_URL, S3_ENDPOINT and AWS_REGION; undefined (the local default) when STORAGE_URL is
 *  unset; throws on a malformed value. */
export function storageFromEnv(env: NodeJS.ProcessEnv): StorageConfig | undefined {
  const url = env.STORAGE_URL?.trim();
  if (!url) return undefined;
  const endpoint = env.S3_ENDPOINT?.trim();
  return {
    kind: "s3",
    ...parseStorageUrl(url),
    endpoint: endpoint ? parseS3Endpoint(endpoint) : undefined,
    region: env.AWS_REGION?.trim() || DEFAULT_S3_REGION,
  };
}

/** The store for a DATA_DIR: uploads in progress always go to a local folder under it. */
export async function createStorage(config: StorageConfig | undefined, dataDir: string): Promise<FileStorage> {
  if (!config || config.kind === "local") return localStorage(join(dataDir, "files"));
  const { s3Storage } = await import("./storage-s3");
  return s3Storage({ ...config, tmpDir: join(dataDir, "tmp", "uploads") });
}
