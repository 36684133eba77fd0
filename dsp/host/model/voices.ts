// Voices: the sound of a session step as SBaGen describes it, a set of up to MAX_VOICES slots each
// holding one voice or nothing. The four channels stay the studio's own simple view; voices are what
// an SBaGen schedule plays (several binaural tones with their own beats, isochronic tones, noise,
// spinning noise, bells) and they play beside the channels, before the effects.
//
// Units and conventions (SBaGen's, so that a schedule plays as SBaGen plays it):
// - amp: percent of full scale, linear peak (a sine at 100 peaks at full scale); voices add
//   linearly. The engine plays full scale at the studio's full tone level (TONE_GAIN), so a
//   schedule keeps SBaGen's balance between its voices and sits at the studio's channel level.
// - binaural: left ear carrier + beat/2, right ear carrier - beat/2; the beat is signed (SBaGen's
//   `200+10/50` is beat +10: left 205 Hz, right 195 Hz; `200-10/50` is beat -10).
// - isochronic: one carrier in both ears, gated at `pulse` Hz by SBaGen+'s gate (the tone sounds
//   while sin(2 pi pulse t) > 0.3, rising and falling by a smoothstep: 40.3 % of each cycle).
// - envelope (binaural and isochronic, optional): the voice's level over one beat (binaural) or
//   pulse (isochronic) cycle, from SBaGen's waveNN or SBaGenX's customNN (dsp/host/sbg/envelopes.ts);
//   for an isochronic voice it replaces the gate. Two voices with different envelopes are
//   different sounds: a change between them goes through silence.
// - noise: white, pink or brown, the same signal in both ears; the three colours at the same amp
//   have the same RMS (pink noise at amp 100 is about -15 dB RMS against a full-scale sine).
// - spin: noise whose interaural delay swings sinusoidally by +-width microseconds at `rate` Hz
//   (positive: the left ear leads first), so the noise circles between the ears.
// - bell: a sine struck when it appears in its slot, decaying by 11/12 every 50 ms (about -60 dB
//   after 4 s); it rings out whatever follows.
// - mix: the session's soundtrack (SBaGen's `-m FILE` played by `mix/amp`): the recording at amp
//   percent of its own level, on the session's clock and looping (dsp/assembly/soundtrack.ts).
// - The soundtrack's effects (SBaGenX's mixpulse, mixam, mixspin, mixbeat) change the mix voices'
//   sound rather than adding their own; their amp is the effect's strength (0: the mix as it is):
//   - mixpulse: the mix gated at `pulse` Hz by the isochronic gate, down to 1 - amp/100 between
//     pulses;
//   - mixam: the mix multiplied by an envelope at `rate` Hz that swings from 1 down to a floor of
//     1 - amp/100 (SBaGenX's f), a raised cosine (shape "cos", starting at the floor at `start`
//     cycles) or a pulse (shape "pulse": on for `duty` of the cycle, rising over `attack` and
//     falling over `release` of that time with SBaGenX's edge curve 0 hard, 1 linear, 2
//     smoothstep, 3 smootherstep);
//   - mixspin: the mix turned around the head like spinning noise (interaural delay +-width
//     microseconds at `rate` Hz), blended with the mix as it is by amp;
//   - mixbeat: the mix frequency-shifted by +beat/2 in the left ear and -beat/2 in the right
//     (single-sideband, through a Hilbert transformer), blended by amp, so the mix itself beats.
//   They apply in that order, whatever their slots; one of each kind counts (the last).
// - noisepulse and noisebeat (SBaGenX): a pink noise bed (or a noiseNN spectrum) gated at its pulse,
//   or shifted +-beat/2 between the ears so that the noise beats; noise, spin and both beds take a
//   noiseNN spectrum, spin a spinNN path.
// - A carrier of 0 Hz is a silent voice, not an error; negative ear frequencies (a carrier below
//   half the beat) are the same sine with its phase reversed, as in SBaGen.
//
// Between two steps each slot moves as SBaGen moves it: the same kind of voice interpolates every
// value linearly over a ramp (or jumps, for a "hold" step; a tone counts as a binaural pair with a
// beat of 0, as in SBaGen, so the two slide into each other); a different kind of voice goes through
// silence (the old one fades linearly to 0 at the middle of the ramp, the new one rises from there).
// An SBaGen schedule's fades, slides and fades through silence are written as such steps by the
// reader (dsp/host/sbg).

export const MAX_VOICES = 32;

export const NOISE_COLOURS = ["white", "pink", "brown"] as const;
/** SBaGenX's waveforms for tones (`square:200+10/20`, `-w triangle`); sine when absent. Played from
 *  the engine's band-limited tables (dsp/assembly/osc/wavetable.ts), as the channels' waveforms. */
export const VOICE_WAVEFORMS = ["square", "sawtooth", "triangle"] as const;
export type VoiceWaveform = (typeof VOICE_WAVEFORMS)[number];
export type NoiseColour = (typeof NOISE_COLOURS)[number];

export const VOICE_KINDS = [
  "tone", "binaural", "isochronic", "noise", "spin", "bell", "mix", "mixpulse", "mixam", "mixspin", "mixbeat", "noisepulse", "noisebeat",
] as const;
/** The kinds that change the soundtrack instead of sounding themselves. */
export const MIX_EFFECT_KINDS = ["mixpulse", "mixam", "mixspin", "mixbeat"] as const;
export const MIXAM_SHAPES = ["cos", "pulse"] as const;
export type MixAmShape = (typeof MIXAM_SHAPES)[number];
export type VoiceKind = (typeof VOICE_KINDS)[number];

/** A plain sine, the same in both ears. */
export interface ToneVoice {
  kind: "tone";
  carrier: number;
  amp: number;
  waveform?: VoiceWaveform;
}

/** A binaural pair: left carrier + beat/2, right carrier - beat/2 (beat signed). */
export interface BinauralVoice {
  kind: "binaural";
  carrier: number;
  beat: number;
  amp: number;
  /** An amplitude envelope over one beat cycle (SBaGen's waveNN, SBaGenX's customNN). */
  envelope?: number[];
  waveform?: VoiceWaveform;
}

/** One carrier in both ears, gated at `pulse` Hz (SBaGen+'s `carrier@pulse/amp`). */
export interface IsochronicVoice {
  kind: "isochronic";
  carrier: number;
  pulse: number;
  amp: number;
  /** The pulse's shape over one cycle instead of SBaGen+'s gate (SBaGenX's customNN). */
  envelope?: number[];
  waveform?: VoiceWaveform;
}

/** An envelope: 2 to ENVELOPE_MAX_POINTS levels 0..1 spread evenly over one cycle, joined linearly
 *  (the last back to the first). A spin path is the same with levels -1..1. */
export const ENVELOPE_MAX_POINTS = 256;

/** SBaGenX's noiseNN: gains in dB (-24..24) at 32 log-spaced frequencies from 20 Hz to 20 kHz,
 *  joined linearly in log frequency; the noise is brought to the colours' RMS. */
export const SPECTRUM_BANDS = 32;
export const SPECTRUM_DB_LIMIT = 24;

/** SBaGenX's `noisepulse:pulse/amp`: a noise bed (pink, or a noiseNN spectrum) gated at `pulse` Hz by
 *  the isochronic gate, or shaped by a customNN envelope. */
export interface NoisePulseVoice {
  kind: "noisepulse";
  pulse: number;
  amp: number;
  envelope?: number[];
  spectrum?: number[];
}

/** SBaGenX's `noisebeat:beat/amp`: a noise bed (pink, or a noiseNN spectrum) shifted up by beat/2 in
 *  the left ear and down in the right (single sideband), so the noise itself beats; with a customNN
 *  envelope the bed moves between the plain noise (0) and the shifted one (1) over each beat. */
export interface NoiseBeatVoice {
  kind: "noisebeat";
  beat: number;
  amp: number;
  envelope?: number[];
  spectrum?: number[];
}

export interface NoiseVoice {
  kind: "noise";
  colour: NoiseColour;
  amp: number;
  /** SBaGenX's noiseNN: a custom spectrum instead of the colour (SPECTRUM_BANDS gains in dB). */
  spectrum?: number[];
}

/** Spinning noise (SBaGen's `spin:width+rate/amp`, SBaGen+'s `bspin:` brown and `wspin:` white). */
export interface SpinVoice {
  kind: "spin";
  colour: NoiseColour;
  /** Largest interaural delay away from the centre, in microseconds. */
  width: number;
  /** Turns per second (signed). */
  rate: number;
  amp: number;
  /** SBaGenX's noiseNN as the noise spun. */
  spectrum?: number[];
  /** SBaGenX's spinNN: the swing's shape over one turn (levels -1..1) instead of a sine. */
  path?: number[];
}

/** A struck bell (SBaGen's `bell+carrier/amp`). */
export interface BellVoice {
  kind: "bell";
  carrier: number;
  amp: number;
}

/** The soundtrack (SBaGen's `mix/amp`): the session's recording at `amp` percent of its level. */
export interface MixVoice {
  kind: "mix";
  amp: number;
}

/** SBaGenX's `mixpulse:pulse/amp`. */
export interface MixPulseVoice {
  kind: "mixpulse";
  pulse: number;
  amp: number;
}

/** SBaGenX's `mixam:rate:m=..:s=..:d=..:a=..:r=..:e=..:f=..` (amp = 100 (1 - f)). */
export interface MixAmVoice {
  kind: "mixam";
  rate: number;
  amp: number;
  shape: MixAmShape;
  /** Where the cycle starts, in cycles (0-1). */
  start: number;
  /** Pulse shape: the part of the cycle that is on, and the parts of that spent rising and falling. */
  duty: number;
  attack: number;
  release: number;
  /** 0 hard, 1 linear, 2 smoothstep, 3 smootherstep. */
  edge: number;
}

/** SBaGenX's `mixspin:width+rate/amp`. */
export interface MixSpinVoice {
  kind: "mixspin";
  width: number;
  rate: number;
  amp: number;
}

/** SBaGenX's `mixbeat:beat/amp`. */
export interface MixBeatVoice {
  kind: "mixbeat";
  beat: number;
  amp: number;
}

/** SBaGenX's mixam defaults (its -H): a raised cosine down to 45 %. */
export const MIXAM_DEFAULTS = { shape: "cos", start: 0, duty: 0.5, attack: 0.5, release: 0.5, edge: 3, floor: 0.45 } as const;

export type Voice =
  | ToneVoice | BinauralVoice | IsochronicVoice | NoiseVoice | SpinVoice | BellVoice | MixVoice
  | MixPulseVoice | MixAmVoice | MixSpinVoice | MixBeatVoice | NoisePulseVoice | NoiseBeatVoice;

/** The recording that a session's mix voices play, named as the schedule names it (`-m FILE`).
 *  Only the name travels in presets and share links; the audio is picked by the user (the studio)
 *  or read from disk (the CLI) and decoded by dsp/host/soundtrack. */
export interface SoundtrackRef {
  name: string;
}

/** Longest file name kept for a soundtrack. */
export const SOUNDTRACK_NAME_MAX = 255;

/** A step's voices: slot i holds a voice or nothing (null). Slots pair voices between steps. */
export type VoiceSlots = (Voice | null)[];

/** Largest values the model keeps (the schema clamps to them). */
export const VOICE_LIMITS = {
  carrier: 20000,
  beat: 1000,
  pulse: 1000,
  amp: 100,
  /** Microseconds: beyond about 2.6 ms the delay is no longer heard as a direction. */
  width: 2600,
  rate: 100,
} as const;
