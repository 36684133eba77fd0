// Reads the .eml files the outbox mailer writes (DATA_DIR/outbox): headers, the decoded plain-text
// part and the links in it. For local development and for tests (unit and e2e) that follow the
// link in a verification or recovery mail; it understands what nodemailer writes, not all of MIME.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface OutboxMessage {
  file: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
}

export function decodeQuotedPrintable(input: string): string {
  const softBreaksRemoved = input.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < softBreaksRemoved.length; i++) {
    const ch = softBreaksRemoved[i];
    const hex = softBreaksRemoved.slice(i + 1, i + 3);
    if (ch === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function splitHead(raw: string): { headers: Map<string, string>; body: string } {
  const cut = raw.search(/\r?\n\r?\n/);
  const head = cut < 0 ? raw : raw.slice(0, cut);
  const body = cut < 0 ? "" : raw.slice(cut).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

/** The decoded text/plain part of a message (searching one level of multipart). */
export function plainTextOf(raw: string): string {
  const { headers, body } = splitHead(raw);
  const type = headers.get("content-type") ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith("multipart/") || !boundary) return decodeBody(headers, body);
  for (const part of body.split(`--${boundary}`)) {
    const parsed = splitHead(part.replace(/^\r?\n/, ""));
    if ((parsed.headers.get("content-type") ?? "").toLowerCase().startsWith("text/plain")) {
      return decodeBody(parsed.headers, parsed.body).replace(/\r?\n$/, "");
    }
  }
  return "";
}

export function parseEml(file: string, raw: string): OutboxMessage {
  const { headers } = splitHead(raw);
  const text = plainTextOf(raw);
  return {
    file,
    to: headers.get("to") ?? "",
    subject: headers.get("subject") ?? "",
    text,
    links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
  };
}

/** Every message in the outbox, oldest first (file names start with the sending time). */
export function readOutbox(outboxDir: string): OutboxMessage[] {
  let names: string[];
  try {
    names = readdirSync(outboxDir).filter((n) => n.endsWith(".eml"));
  } catch {
    return [];
  }
  return names.sort().map((name) => {
    const file = join(outboxDir, name);
    return parseEml(file, readFileSync(file, "utf8"));
  });
}
