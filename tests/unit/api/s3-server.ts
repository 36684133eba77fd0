// A local S3-compatible server for the tests (s3rver on a loopback port, files in a temp dir),
// and the S3 store of the app pointed at it with s3rver's fixed credentials.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { S3Client } from "@aws-sdk/client-s3";
import type { FileStorage } from "../../../api/services/storage";
import { s3Storage } from "../../../api/services/storage-s3";

export const S3_BUCKET = "tone-files";
const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface LocalS3 {
  endpoint: string;
  /** A client of its own, to look at what is stored without going through the app. */
  client: S3Client;
  /** The app's store on this server under `prefix`, with uploads in progress in `tmpDir`. */
  storage(tmpDir: string, prefix?: string): FileStorage;
  close(): Promise<void>;
}

export async function startLocalS3(): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), "s3rver-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: S3_BUCKET }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ region: "us-east-1", endpoint, forcePathStyle: true, credentials: CREDENTIALS });
  return {
    endpoint,
    client,
    storage: (tmpDir, prefix = "studio/") => s3Storage({ bucket: S3_BUCKET, prefix, endpoint, tmpDir, credentials: CREDENTIALS }),
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
