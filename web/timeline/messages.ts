// Every text of the session timeline panel (web/timeline/): labels, help, errors and the live
// description of the selected step. Tests import these rather than repeating them.

import { MAX_TIMELINE_STEPS } from "../../dsp/host/model/limits";
import type { Ramp } from "../../dsp/host/schema/timeline";
import { MAX_VOICES, type NoiseColour, type VoiceKind } from "../../dsp/host/schema/voices";

export const TIMELINE_TITLE = "Session timeline";
export const TIMELINE_HELP =
  "Steps change the sound over time. Each step sets some values at its time; between steps the sound holds, or ramps from the step before. " +
  "Select a step's handle, then Left and Right move it by 1 second (Shift: 10 seconds) and Delete removes it.";
export const EMPTY_TIMELINE = "No steps yet: the sound stays as set above for the whole session.";

export const ADD_STEP = "Add step";
export const ADD_STEP_HELP = "Adds a step at the playhead while playing, else after the last step.";
export const DELETE_STEP = "Delete step";
export const PREVIOUS_STEP = "Previous step";
export const NEXT_STEP = "Next step";

export const AXIS_LABEL = "Session timeline: channel frequencies over time";
export const LEGEND_LABEL = "Lines on the axis";

export const STEP_TIME = "Time (HH:MM:SS)";
export const STEP_RAMP = "From the step before";
export const STEP_NAME = "Name (optional)";
export const FIRST_STEP_RAMP_NOTE = "A step at 00:00:00 sets the start: there is nothing before it to ramp from.";

export const RAMP_LABELS: Record<Ramp, string> = {
  hold: "Hold, then jump",
  linear: "Linear ramp",
  ease: "Eased ramp",
  exponential: "Exponential ramp",
};

/** Short ramp names for the handles' descriptions and the text under the axis. */
export const RAMP_SHORT: Record<Ramp, string> = { hold: "jump", linear: "linear ramp", ease: "eased ramp", exponential: "exponential ramp" };

export const CHANNELS_LEGEND = "Channels at this step";
export const EFFECTS_LEGEND = "Effects at this step";
export const CHANGED_HERE = "set here";
export const FROM_BEFORE = "from before";
export const channelName = (id: number) => `Channel ${id}`;
export const FREQUENCY_LABEL = "Frequency (Hz)";
export const VOLUME_LABEL = "Volume (%)";
export const WAVEFORM_LABEL = "Waveform";
export const VALUE_LABEL = "Value";
export const switchText = (on: boolean) => (on ? "On" : "Off");
export const effectRange = (min: number, max: number) => `${min} to ${max}`;
export const channelField = (id: number, field: string) => `Step channel ${id} ${field}`;
export const clearChannel = (id: number) => `Keep channel ${id} from before`;
export const ADD_EFFECT = "Add effect change";
export const EFFECT_CHOICE = "Effect to change";
export const effectField = (name: string, field: string) => `Step ${name} ${field}`;
export const removeEffect = (name: string) => `Keep ${name} from before`;
export const NO_EFFECT_CHANGES = "No effect changes at this step.";
export const PRO_SUFFIX = " (Pro)";

export const BAD_TIME = "Enter the time as HH:MM:SS, for example 00:40:00.";
export const TIME_TOO_LATE = "A step must be at most 12:00:00 from the start.";
export const TIMELINE_FULL = `A timeline holds at most ${MAX_TIMELINE_STEPS} steps.`;
export const STEPS_AFTER_END = (end: string) =>
  `Some steps come after the session's end (${end}): lengthen the duration to hear them.`;

export const TEXT_VIEW_TITLE = "Session as text (.sbg)";
export const TEXT_VIEW_HELP = "The session in SBaGen's schedule format. Edit it and apply: nothing changes while it has errors.";
export const IMPORT_HELP = "Choose the .sbg file, together with the files it names: its soundtrack (-m) and a -p curve's .sbgf.";
export const APPLY_TEXT = "Apply text";
export const RESET_TEXT = "Reset text";
export const TEXT_APPLIED = "Text applied to the session.";
export const TEXT_HAS_ERRORS = "Not applied: the text has errors.";
export const IMPORT_SBG = "Import .sbg file";
export const EXPORT_SBG = "Export .sbg file";
export const SBG_FILE_NAME = "session.sbg";
export const SBG_IMPORTED = (name: string, warnings = 0) =>
  warnings > 0 ? `Imported ${name} with ${warnings} ${warnings === 1 ? "warning" : "warnings"}.` : `Imported ${name}.`;
export const SBG_NOT_IMPORTED = (name: string) => `${name} was not imported: it has errors.`;
export const lineMessage = (line: number, message: string) => (line > 0 ? `Line ${line}: ${message}` : message);
export const WARNINGS_TITLE = "Warnings";
export const ERRORS_TITLE = "Errors";

export const stepName = (index: number, count: number) => `Step ${index + 1} of ${count}`;
export const NO_STEP_SELECTED = "No step selected.";
export const SILENCE = "silence";
export const stepAdded = (index: number, time: string) => `Step ${index + 1} added at ${time}.`;
export const stepDeleted = (index: number) => `Step ${index + 1} deleted.`;
export const NOW_PLAYING = "now playing";

export const VOICES_TITLE = "Voices";
export const VOICES_HELP =
  "Voices play beside the channels, as an SBaGen schedule plays them: tones, binaural pairs (left ear carrier + beat/2, right ear carrier - beat/2), " +
  "isochronic pulses, noise, spinning noise, bells and the soundtrack. A step's voices are its whole set; a step without its own keeps those from before.";
export const SOUNDTRACK_TITLE = "Soundtrack";
export const SOUNDTRACK_HELP = "A recording (WAV, FLAC, OGG or MP3, up to 10 minutes) that the Soundtrack voices play at their amp, looping under the whole session. It stays on this device: presets and links only name it.";
export const CHOOSE_SOUNDTRACK = "Choose soundtrack file";
export const REMOVE_SOUNDTRACK = "Remove soundtrack";
export const SOUNDTRACK_LOADING = "Reading the file...";
export const soundtrackLoaded = (name: string, seconds: number) => `${name} is loaded (${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, "0")}, looping).`;
export const soundtrackMissing = (name: string) => `This session plays ${name}: choose the file to hear it. Until then its Soundtrack voices are silent.`;
export const SOUNDTRACK_NONE = "No soundtrack file: the Soundtrack voices are silent.";
export const soundtrackNeeded = (name: string) => ` It plays the soundtrack ${name}: choose the file under Voices, Soundtrack.`;
export const VOICES_AT_START = "Voices at the start (00:00:00)";
export const voicesAtStep = (index: number, count: number) => `Voices at step ${index + 1} of ${count}`;
export const VOICES_FROM_BEFORE = "This step plays the voices from before; an edit gives it its own.";
export const VOICES_SET_HERE = "This step sets its own voices.";
export const NO_VOICES = "No voices.";
export const ADD_VOICE = "Add voice";
export const KEEP_VOICES = "Keep voices from before";
export const VOICES_FULL = `A step holds at most ${MAX_VOICES} voices.`;
export const voiceName = (slot: number) => `Voice ${slot + 1}`;
export const voiceField = (slot: number, field: string) => `Voice ${slot + 1} ${field}`;
export const removeVoiceLabel = (slot: number) => `Remove voice ${slot + 1}`;
export const REMOVE = "Remove";
export const VOICE_FIELDS = {
  kind: "kind",
  carrier: "carrier (Hz)",
  beat: "beat (Hz)",
  pulse: "pulse (Hz)",
  width: "width (µs)",
  rate: "rate (Hz)",
  colour: "colour",
  waveform: "waveform",
  amp: "amp (%)",
} as const;
export const WAVEFORM_LABELS = { sine: "Sine", square: "Square", sawtooth: "Sawtooth", triangle: "Triangle" } as const;
export const VOICE_FIELD_SHORT: Record<keyof typeof VOICE_FIELDS, string> = {
  kind: "Kind",
  carrier: "Carrier (Hz)",
  beat: "Beat (Hz)",
  pulse: "Pulse (Hz)",
  width: "Width (µs)",
  rate: "Rate (Hz)",
  colour: "Colour",
  waveform: "Wave",
  amp: "Amp (%)",
};
export const VOICE_KIND_LABELS: Record<VoiceKind, string> = {
  tone: "Tone", binaural: "Binaural", isochronic: "Isochronic", noise: "Noise", spin: "Spin", bell: "Bell", mix: "Soundtrack",
  mixpulse: "Soundtrack pulse", mixam: "Soundtrack AM", mixspin: "Soundtrack spin", mixbeat: "Soundtrack beat",
  noisepulse: "Pulsed noise", noisebeat: "Beating noise",
};
export const NOISE_COLOUR_LABELS: Record<NoiseColour, string> = { white: "White", pink: "Pink", brown: "Brown" };
export const voiceAdded = (slot: number) => `Voice ${slot + 1} added.`;
export const voiceRemoved = (slot: number) => `Voice ${slot + 1} removed.`;
