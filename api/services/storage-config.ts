// Which file store the server uses: the local directory DATA_DIR/files by default, or an
// S3-compatible object store when STORAGE_URL=s3://bucket/prefix is set (S3_ENDPOINT for a
// non-AWS server, AWS_REGION, credentials from the SDK's standard chain). Parsed once at start,
// so a bad URL stops the server with a clear message instead of failing the first upload.
import { join } from "node:path";
import { type FileStorage, localStorage } from "./storage";
import { parseS3Endpoint, parseStorageUrl, type S3StorageOptions, s3Storage } from "./storage-s3";

export type StorageConfig = { kind: "local" } | ({ kind: "s3" } & Omit<S3StorageOptions, "tmpDir">);

export const DEFAULT_S3_REGION = "us-east-1";

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
export function createStorage(config: StorageConfig | undefined, dataDir: string): FileStorage {
  if (!config || config.kind === "local") return localStorage(join(dataDir, "files"));
  return s3Storage({ ...config, tmpDir: join(dataDir, "tmp", "uploads") });
}
