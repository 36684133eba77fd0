// The studio's sound limits, in one dependency-free module that every side imports: the engine
// (AssemblyScript compiles this file too, so it holds plain numeric constants only), dsp/host's
// preset schema, the web studio and the API's entitlements. spec/studio.md sections 5 and 9.

/** Highest channel frequency in Hz (the frequency box, the slider, presets and the engine). */
export const MAX_FREQUENCY_HZ = 20000.0;

/** Shortest playback in seconds the duration box accepts. */
export const MIN_DURATION_SECONDS = 30.0;
/** Longest playback in seconds for everyone but admins with unlimited access ('59 min max'). */
export const MAX_DURATION_SECONDS = 3600.0;
/** Longest playback in seconds for admins with unlimited access (12 hours; also the export limit). */
export const MAX_DURATION_UNLIMITED_SECONDS = 43200.0;
/** The duration box's value before the user types one. */
export const DEFAULT_DURATION_SECONDS = 30.0;

/** A frequency change while playing glides linearly over this time (click-free, still instant). */
export const GLIDE_SECONDS = 0.005;

/** Every stop (Stop, the end of the duration, the end of an export) fades out over this time
 *  (spec 4 and 9); the export report skips it when it measures the last seconds. */
export const STOP_FADE_SECONDS = 0.05;

/** Most steps a session timeline holds (presets, share links, .sbg imports): room for SBaGen's
 *  longest published schedules, whose change-overs take up to four steps each (a 24-hour ring of
 *  3-minute tone-sets cut at 12 hours needs 962). */
export const MAX_TIMELINE_STEPS = 1000;
/** Automation segments the engine keeps per channel: two per step (the step's change and the
 *  hold after it) and the start. */
export const MAX_TIMELINE_SEGMENTS = 2048;
/** A timeline step that jumps (hold) moves its values linearly over this time from the step's
 *  start, so a jump never clicks. */
export const STEP_JUMP_SECONDS = 0.01;

/** The master limiter's ceiling in dBTP (true peak, ITU-R BS.1770-4 annex 2): the engine's limiter
 *  and dsp/host/schema/levels.ts (re-exported there with the other listening levels). */
export const LIMITER_CEILING_DBTP = -1.0;
/** The engine's largest output gain (+24 dB): a loudness-normalised export of a very quiet sound
 *  is raised at most this much. */
export const MAX_OUTPUT_GAIN = 16.0;

/** The engine's largest channel gain (+6 dB over the nominal tone level): a channel at volume 1.
 *  Volume 0.5, the default, is gain 1 (dsp/host/model/volume.ts converts). */
export const MAX_CHANNEL_GAIN = 2.0;

/** The longest voice recording in seconds (the Recordings panel stops there; the API refuses a
 *  longer upload). */
export const MAX_RECORDING_SECONDS = 600.0;
/** Most recordings one session places (the engine's placement slots). */
export const MAX_RECORDING_PLACEMENTS = 8;
/** Most frames of recorded audio one session holds in the engine (mono 16-bit: 20 minutes at
 *  48 kHz, 110 MiB), shared by every recording it places. */
export const MAX_RECORDING_STORE_FRAMES = 57600000;
