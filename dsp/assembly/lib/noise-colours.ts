// The noise colours' filter constants, shared by the noise effect (fx/noise.ts) and the voices'
// noise (voices.ts): pink is Paul Kellet's refined filter (musicdsp.org, "Filter to make pink
// noise"), brown a leaky integrator; both scaled to white noise's RMS.

/** Kellet's filter has ~9.7 dB of power gain on white noise. */
export const PINK_SCALE: f32 = 0.3285;
/** Corner fs (1 - a) / 2 pi = 11.5 Hz at 48 kHz. */
export const BROWN_LEAK: f32 = 0.9985;
/** sqrt(1 - a^2): unit gain in power. */
export const BROWN_SCALE: f32 = 0.0548;
