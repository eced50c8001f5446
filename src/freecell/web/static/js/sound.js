// Quiet sounds, made on the spot with Web Audio (nothing downloaded): a soft tap of card
// on felt for a move, a short riffle for a deal, a few rising bell notes for a win. Off
// until the player turns them on (Options); the audio context is made at the first sound,
// which follows a tap or a key, as browsers ask.

import { store } from "./store.js";

const LOUDNESS = 0.12; // of full scale: quiet beside any other sound of the machine

let context = null;
let noise = null; // a second of white noise, the stuff of card sounds

function audio() {
  if (context === null) {
    const Context = window.AudioContext ?? window.webkitAudioContext;
    if (!Context) {
      return null;
    }
    context = new Context();
    noise = context.createBuffer(1, context.sampleRate, context.sampleRate);
    const samples = noise.getChannelData(0);
    for (let i = 0; i < samples.length; i += 1) {
      samples[i] = Math.random() * 2 - 1;
    }
  }
  if (context.state === "suspended") {
    context.resume().catch(() => {});
  }
  return context;
}

/** A burst of filtered noise `at` seconds from now: a card laid on the felt. */
function tap(ctx, at, { length = 0.05, pitch = 1800, level = 1 } = {}) {
  const source = ctx.createBufferSource();
  source.buffer = noise;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = pitch;
  filter.Q.value = 0.9;
  const gain = ctx.createGain();
  const start = ctx.currentTime + at;
  gain.gain.setValueAtTime(LOUDNESS * level, start);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(start, Math.random() * 0.5, length + 0.02);
}

/** A soft bell note (a sine with a quick fall) `at` seconds from now. */
function bell(ctx, at, frequency) {
  const tone = ctx.createOscillator();
  tone.type = "sine";
  tone.frequency.value = frequency;
  const gain = ctx.createGain();
  const start = ctx.currentTime + at;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(LOUDNESS * 0.8, start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.9);
  tone.connect(gain).connect(ctx.destination);
  tone.start(start);
  tone.stop(start + 1);
}

const SOUNDS = {
  // One tap for each card sent in one action (an auto-finish plays several).
  move: (ctx, count = 1) => {
    for (let i = 0; i < Math.min(count, 12); i += 1) {
      tap(ctx, i * 0.09);
    }
  },
  deal: (ctx) => {
    for (let i = 0; i < 12; i += 1) {
      tap(ctx, i * 0.035, { length: 0.03, pitch: 2200 + Math.random() * 800, level: 0.7 });
    }
  },
  // C, E, G, high C: the major arpeggio every game plays for a win, played softly.
  win: (ctx) => [523.25, 659.25, 783.99, 1046.5].forEach((frequency, i) => bell(ctx, i * 0.14, frequency)),
};

/** Play `name` ("move", "deal" or "win"; a move of `count` cards) if the player has sounds on. */
export function play(name, count = 1) {
  if (!store.options.sounds) {
    return;
  }
  const ctx = audio();
  if (ctx) {
    SOUNDS[name](ctx, count);
  }
}

/** Which sound a new state calls for, if any: a deal, a win, or a move. */
function soundFor(game, previous) {
  if (!previous) {
    return null; // the page opening on a game: nothing was played
  }
  if (previous.id !== game.id) {
    return game.moves === 0 ? "deal" : null;
  }
  if (previous.outcome === "playing" && game.outcome === "won") {
    return "win";
  }
  return game.moves !== previous.moves ? "move" : null;
}

/** Sound the moves, deals and wins the store receives; a tap sounds when they are turned on. */
export function setupSound() {
  store.subscribe((change) => {
    if (change.kind === "game" && (change.how === "played" || change.how === "viewer")) {
      const name = soundFor(store.game, change.previous);
      if (name) {
        play(name, store.game.last_places?.length || 1);
      }
    } else if (change.kind === "options" && change.name === "sounds") {
      play("move");
    }
  });
}
