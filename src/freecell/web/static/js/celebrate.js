// A win, celebrated: the cards leave the foundations one by one, kings first, and bounce
// away across the felt leaving a trail, as in the Solitaire that came with Windows. Drawn
// on a canvas over the felt (under the banner, whose buttons stay live); it ends by itself
// once the last card is off the table, or at a tap or a key. Under reduced motion nothing
// moves: a still line over the felt says the cards are home.

import { cardBelow, cardDocument, suitOf } from "./cards.js";
import { $ } from "./dom.js";
import { store } from "./store.js";
import { suitColour } from "./theme.js";

const reduced = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// Motion, in the felt's own size per second, so a phone's cascade looks like a desktop's.
const GRAVITY = 2.4; // felt heights per s²
const SPEED = [0.3, 0.6]; // across: felt widths per s, at random in this range, left or right
const LEAP = 0.8; // up: at most this many felt heights per s at the start
const BOUNCE = 0.78; // of the speed a card keeps at each bounce
const LAUNCHES = 8; // s: the time all the cards take to leave, however many they are
const FADE = 600; // ms: the trails fade out at the end (as .cascade.ending says)

let current = null; // the cascade in flight: { end() }

/** The foundations' piles, top first: [["KH", "QH", …, "AH"], …], and their slots on the page. */
function piles(game) {
  const slots = [...$("table").querySelectorAll(".top-row > .slot.foundation")];
  return game.foundations.map((pile, i) => {
    const cards = [];
    for (let card = pile.top; card; card = cardBelow(card)) {
      cards.push(card);
    }
    return { cards, slot: slots[i] };
  });
}

/** Each card of `cards` as an image to draw, in the deck's colours. */
async function images(cards) {
  const large = store.options.largeIndices;
  const made = new Map();
  await Promise.all([...new Set(cards)].map((card) => {
    const image = new Image();
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(cardDocument(card, suitColour(suitOf(card)), large))}`;
    made.set(card, image);
    return image.decode();
  }));
  return made;
}

/**
 * Resolves once the last cards sent home have landed (an auto-finish sends many): the
 * slides of the winning state, started just after it was received.
 */
async function landed() {
  await new Promise((resolve) => setTimeout(resolve));
  const slides = $("table").getAnimations({ subtree: true })
    .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
  await Promise.all(slides.map((animation) => animation.finished.catch(() => {})));
}

/** The canvas over the felt, sized to it, its pixels the screen's. */
function makeCanvas(wrap) {
  const canvas = document.createElement("canvas");
  canvas.className = "cascade";
  canvas.setAttribute("aria-hidden", "true");
  const scale = window.devicePixelRatio || 1;
  canvas.width = Math.round(wrap.clientWidth * scale);
  canvas.height = Math.round(wrap.clientHeight * scale);
  wrap.append(canvas);
  const ctx = canvas.getContext("2d");
  ctx.scale(scale, scale);
  return { canvas, ctx, width: wrap.clientWidth, height: wrap.clientHeight };
}

/** Run the cascade of `game`'s foundations; resolves once it has ended. */
async function cascade(game) {
  const stacks = piles(game).filter((pile) => pile.cards.length && pile.slot);
  const pictures = await images(stacks.flatMap((pile) => pile.cards));
  await landed();
  if (store.game !== game) {
    return; // moved on meanwhile
  }
  const wrap = $("frame").parentElement;
  const frame = $("frame");
  const { canvas, ctx, width, height } = makeCanvas(wrap);
  const origin = canvas.getBoundingClientRect();
  for (const pile of stacks) {
    const rect = pile.slot.getBoundingClientRect();
    pile.box = { x: rect.left - origin.left, y: rect.top - origin.top, w: rect.width, h: rect.height };
    ctx.drawImage(pictures.get(pile.cards[0]), pile.box.x, pile.box.y, pile.box.w, pile.box.h);
  }
  frame.classList.add("cascading");

  // Kings first, one from each foundation in turn, then the queens, and so on.
  const order = [];
  const deepest = Math.max(...stacks.map((pile) => pile.cards.length));
  for (let depth = 0; depth < deepest; depth += 1) {
    stacks.filter((pile) => depth < pile.cards.length).forEach((pile) => order.push({ pile, depth }));
  }
  const every = (LAUNCHES * 1000) / order.length;
  const flying = [];
  let launched = 0;
  let last = performance.now();
  let started = last;
  let frameId = 0;
  let finish = null;
  const finished = new Promise((resolve) => {
    finish = resolve;
  });

  function end() {
    if (current?.end !== end) {
      return; // ended already
    }
    current = null;
    cancelAnimationFrame(frameId);
    document.removeEventListener("pointerdown", end, true);
    document.removeEventListener("keydown", end, true);
    window.removeEventListener("resize", end);
    frame.classList.remove("cascading");
    canvas.classList.add("ending");
    setTimeout(() => canvas.remove(), FADE);
    finish();
  }

  function launch() {
    const { pile, depth } = order[launched];
    const { x, y, w, h } = pile.box;
    // The pile beneath shows its next card, or its empty place once the ace has gone.
    ctx.clearRect(x - 1, y - 1, w + 2, h + 2);
    const next = pile.cards[depth + 1];
    if (next) {
      ctx.drawImage(pictures.get(next), x, y, w, h);
    }
    const across = (SPEED[0] + Math.random() * (SPEED[1] - SPEED[0])) * width;
    flying.push({
      image: pictures.get(pile.cards[depth]), x, y, w, h,
      vx: Math.random() < 0.5 ? -across : across,
      vy: -Math.random() * LEAP * height,
    });
    launched += 1;
    canvas.dataset.launched = String(launched);
  }

  function step(now) {
    const dt = Math.min(0.05, (now - last) / 1000);
    last = now;
    while (launched < order.length && now - started >= launched * every) {
      launch();
    }
    for (const card of flying) {
      card.vy += GRAVITY * height * dt;
      card.x += card.vx * dt;
      card.y += card.vy * dt;
      if (card.y + card.h > height) {
        card.y = height - card.h;
        card.vy = -card.vy * BOUNCE;
      }
      ctx.drawImage(card.image, card.x, card.y, card.w, card.h);
    }
    for (let i = flying.length - 1; i >= 0; i -= 1) {
      if (flying[i].x + flying[i].w < 0 || flying[i].x > width) {
        flying.splice(i, 1);
      }
    }
    canvas.dataset.flying = String(flying.length);
    if (launched === order.length && flying.length === 0) {
      end();
    } else {
      frameId = requestAnimationFrame(step);
    }
  }

  current = { end };
  document.addEventListener("pointerdown", end, true);
  document.addEventListener("keydown", end, true);
  window.addEventListener("resize", end);
  started = performance.now();
  last = started;
  frameId = requestAnimationFrame(step);
  return finished;
}

/** Under reduced motion: a still line over the felt, until the next game. */
function calmWord(game) {
  const line = document.createElement("p");
  line.className = "calm-win";
  const count = game.foundations.length * 13;
  line.textContent = `All ${count} cards are home. Well played!`;
  $("frame").parentElement.append(line);
}

/** Celebrate each game won in play; end the celebration when the game moves on. */
export function setupCelebration() {
  store.subscribe((change) => {
    if (change.kind !== "game" || change.how === "refreshed") {
      return;
    }
    const { game } = store;
    const { previous } = change;
    const won = previous?.id === game.id && previous.outcome === "playing" && game.outcome === "won";
    if (!won) {
      current?.end();
      document.querySelectorAll(".calm-win").forEach((line) => line.remove());
      return;
    }
    if (reduced()) {
      calmWord(game);
    } else {
      cascade(game).catch(() => {}); // a picture that will not decode: no cascade, the banner says it
    }
  });
}
