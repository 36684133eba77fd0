// Imported first by every browser entry (web/main.tsx, the export worker): zod compiles object
// parsers with `new Function` unless told not to, and even its probe for that is reported as a
// violation of the Content-Security-Policy (api/http/security-headers.ts allows no eval). Must run
// before any schema is built, hence its own module at the top of the entries' imports.
import { z } from "zod";

z.config({ jitless: true });
