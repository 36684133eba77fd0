// Texts only the Recordings panel shows (the API's texts are in api/rules/recordings.ts).

export const TITLE = "Recordings";
export const INTRO =
  "Record your voice (up to 10 minutes) and place it in the session: at a time or a timeline step, repeated every few minutes, or looped under the whole session. It plays live and is in every WAV export at the level you set.";
export const PERMISSION_NOTE =
  "When you press Record, your browser asks whether this site may use your microphone: choose Allow. Nothing is recorded before you press Record, and the take stays on this device until you save it to your recordings.";
export const RECORD = "Record";
export const STOP_RECORDING = "Stop recording";
export const LISTEN = "Listen";
export const STOP_LISTENING = "Stop listening";
export const SAVE = "Save to my recordings";
export const DISCARD = "Discard";
export const PLACE = "Place in session";
export const DELETE = "Delete";
export const REMOVE_PLACEMENT = "Remove from session";
export const NAME_LABEL = "Name";
export const SAVED_TITLE = "My recordings";
export const PLACED_TITLE = "In this session";
export const NONE_SAVED = "No recordings yet.";
export const NONE_PLACED = "No recording is placed in this session.";
export const SIGN_IN = "Sign in to record your voice.";

export const MIC_REFUSED =
  "Microphone access was refused. To record, allow the microphone for this site in your browser's site settings, then press Record again.";
export const MIC_MISSING = "No microphone was found. Connect a microphone (or a headset) and press Record again.";
export const MIC_UNAVAILABLE = "This browser cannot record here: recording needs a secure (https) page and a browser with microphone access.";
export const MIC_BUSY = "The microphone could not be started (another app may be using it). Close it and press Record again.";

export const recordingNow = (elapsed: string, max: string) => `Recording ${elapsed} of ${max}`;
export const takeReady = (length: string) => `Take recorded: ${length}. Listen, name it and save it.`;
export const saved = (name: string) => `${name} saved to your recordings.`;
export const deleted = (name: string) => `${name} deleted.`;
export const placed = (name: string) => `${name} placed in the session.`;
export const notLoaded = (name: string) => `${name}: the audio is not loaded (it is not in your recordings or the link's).`;
export const WHEN_AT = "At a time";
export const WHEN_STEP = "At a timeline step";
export const WHEN_EVERY = "Repeat every N minutes";
export const WHEN_LOOP = "Loop under the whole session";
