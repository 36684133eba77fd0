// Every text of the session timeline panel (web/timeline/): labels, help, errors and the live
// description of the selected step. Tests import these rather than repeating them.

import { MAX_TIMELINE_STEPS } from "../../dsp/host/model/limits";
import type { Ramp } from "../../dsp/host/schema/timeline";

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
export const APPLY_TEXT = "Apply text";
export const RESET_TEXT = "Reset text";
export const TEXT_APPLIED = "Text applied to the session.";
export const TEXT_HAS_ERRORS = "Not applied: the text has errors.";
export const IMPORT_SBG = "Import .sbg file";
export const EXPORT_SBG = "Export .sbg file";
export const SBG_FILE_NAME = "session.sbg";
export const SBG_IMPORTED = (name: string) => `Imported ${name}.`;
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
