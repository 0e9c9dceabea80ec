/**
 * Makes the demo station's audio loop: `node scripts/make-demo-audio.ts`
 * (needs Debian's `lame`). Writes src/server/demo-station/demo-loop.mp3, which
 * is committed (binary, see .gitattributes), so neither the build nor `npm start` needs any audio tool.
 *
 * The music is synthesised here (a slow Dmaj9–Bm9–Gmaj9–A6/9 progression:
 * warm pads, a round bass, a soft kick and a bell arpeggio with a delay) into
 * a circular buffer, so every tail wraps around and the loop is seamless.
 * It is encoded three times over without the bit reservoir (each frame stands
 * alone), and the frames of the middle copy are kept: they repeat without a
 * gap or click, whatever the encoder's delay.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { splitFrames } from '../src/server/audio/mp3-frames.ts';

const RATE = 44_100;
const FRAME = 1152;
const LOOP_FRAMES = 460; // 12.02 s: 4 chords of 4 beats at about 80 bpm
const L = LOOP_FRAMES * FRAME;
const BITRATE = 96;
const OUT = new URL('../src/server/demo-station/demo-loop.mp3', import.meta.url);

const left = new Float64Array(L);
const right = new Float64Array(L);
/** The bells go through the echo; the rest stays dry. */
const bellL = new Float64Array(L);
const bellR = new Float64Array(L);
const beat = L / 16;
const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

/** Adds a note into the circular buffer: `voice(t)` gives the mono sample at t seconds. */
function add(
  start: number,
  seconds: number,
  pan: number,
  gain: number,
  voice: (t: number) => number,
  target = [left, right],
): void {
  const n = Math.round(seconds * RATE);
  const gl = gain * Math.cos(((pan + 1) * Math.PI) / 4);
  const gr = gain * Math.sin(((pan + 1) * Math.PI) / 4);
  for (let i = 0; i < n; i++) {
    const v = voice(i / RATE);
    const at = (Math.round(start) + i) % L;
    target[0]![at]! += v * gl;
    target[1]![at]! += v * gr;
  }
}

const chords = [
  { bass: 50, pad: [54, 57, 61, 64], arp: [74, 78, 81, 85, 81, 78, 76, 73] }, // Dmaj9
  { bass: 47, pad: [54, 57, 61, 62], arp: [71, 74, 78, 81, 85, 81, 78, 74] }, // Bm9
  { bass: 43, pad: [54, 57, 59, 62], arp: [67, 71, 74, 78, 81, 78, 74, 71] }, // Gmaj9
  { bass: 45, pad: [52, 54, 59, 61], arp: [69, 73, 76, 78, 83, 78, 76, 73] }, // A6/9
];

chords.forEach((chord, c) => {
  const at = c * 4 * beat;
  const length = (4 * beat) / RATE;

  // Pads: three slightly detuned partial-rich sines per note, slow swell, long release overlapping the next chord.
  for (const [v, note] of chord.pad.entries()) {
    for (const [k, cents] of [-6, 0, 6].entries()) {
      const f = hz(note) * 2 ** (cents / 1200);
      const env = (t: number) => Math.min(1, t / 0.9) * (t < length ? 1 : Math.max(0, 1 - (t - length) / 1.4));
      add(
        at,
        length + 1.4,
        (k - 1) * 0.6 + (v - 1.5) * 0.1,
        0.045,
        (t) =>
          env(t) *
          (Math.sin(2 * Math.PI * f * t) +
            0.28 * Math.sin(4 * Math.PI * f * t) +
            0.08 * Math.sin(6 * Math.PI * f * t)) *
          (0.85 + 0.15 * Math.sin(2 * Math.PI * 0.35 * t + v)),
      );
    }
  }

  // Bass: a round sine with a touch of its octave, one note per beat, the last one on the fifth.
  for (let b = 0; b < 4; b++) {
    const note = b === 3 ? chord.bass + 7 : chord.bass;
    const f = hz(note) / 2;
    add(
      at + b * beat,
      0.7,
      0,
      0.22,
      (t) =>
        Math.min(1, t / 0.01) *
        Math.exp(-t * 2.2) *
        (Math.sin(2 * Math.PI * f * t) + 0.3 * Math.sin(4 * Math.PI * f * t)),
    );
  }

  // A soft kick on beats one and three.
  for (const b of [0, 2]) {
    add(at + b * beat, 0.35, 0, 0.32, (t) => {
      const phase = 2 * Math.PI * (45 * t + (45 / 18) * (1 - Math.exp(-t * 18)));
      return Math.exp(-t * 9) * Math.sin(phase);
    });
  }

  // Bell arpeggio on eighth notes (FM: bright attack, mellow tail), panned side to side.
  chord.arp.forEach((note, i) => {
    const f = hz(note);
    add(
      at + (i * beat) / 2,
      1.6,
      i % 2 === 0 ? -0.45 : 0.45,
      0.06,
      (t) =>
        Math.min(1, t / 0.004) *
        Math.exp(-t * 3.2) *
        Math.sin(2 * Math.PI * f * t + 1.6 * Math.exp(-t * 6) * Math.sin(2 * Math.PI * 2 * f * t)),
      [bellL, bellR],
    );
  });
});

// A ping-pong dotted-eighth echo on the bells, circular too: the feedback goes round the loop until it has died away.
const delay = Math.round((beat * 3) / 4);
const wetL = new Float64Array(L);
const wetR = new Float64Array(L);
for (let pass = 0; pass < 8; pass++) {
  for (let i = 0; i < L; i++) {
    const j = (i - delay + L) % L;
    wetL[i] = 0.38 * (bellR[j]! + wetR[j]!);
    wetR[i] = 0.38 * (bellL[j]! + wetL[j]!);
  }
}

let peak = 0;
for (let i = 0; i < L; i++) {
  left[i] = Math.tanh(left[i]! + bellL[i]! + wetL[i]!);
  right[i] = Math.tanh(right[i]! + bellR[i]! + wetR[i]!);
  peak = Math.max(peak, Math.abs(left[i]!), Math.abs(right[i]!));
}

// Three copies, 16-bit little-endian interleaved, peak at -3 dBFS.
const scale = (0.708 * 32767) / peak;
const pcm = Buffer.alloc(L * 4 * 3);
for (let copy = 0; copy < 3; copy++) {
  for (let i = 0; i < L; i++) {
    const o = (copy * L + i) * 4;
    pcm.writeInt16LE(Math.round(left[i]! * scale), o);
    pcm.writeInt16LE(Math.round(right[i]! * scale), o + 2);
  }
}

const lame = spawnSync(
  'lame',
  [
    '--quiet',
    '-r',
    '-s',
    '44.1',
    '--bitwidth',
    '16',
    '--signed',
    '--little-endian',
    '-m',
    'j',
    '-b',
    String(BITRATE),
    '--resample',
    '44.1',
    '--cbr',
    '--nores',
    '-t',
    '-q',
    '2',
    '-',
    '-',
  ],
  { input: pcm, maxBuffer: 64 * 1024 * 1024 },
);
if (lame.error || lame.status !== 0) {
  console.error('make-demo-audio: lame failed (apt-get install lame)', lame.error ?? lame.stderr.toString());
  process.exit(1);
}
const frames = splitFrames(lame.stdout);
if (frames.length < 3 * LOOP_FRAMES)
  throw new Error(`make-demo-audio: expected ${3 * LOOP_FRAMES} frames, got ${frames.length}`);
const loop = Buffer.concat(frames.slice(LOOP_FRAMES, 2 * LOOP_FRAMES));

writeFileSync(OUT, loop);
console.log(`make-demo-audio: ${LOOP_FRAMES} frames, ${loop.length} bytes → ${OUT.pathname}`);
