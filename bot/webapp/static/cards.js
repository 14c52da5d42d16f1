// Cards as inline SVG: one function draws any face (or a back), so every card on the page looks alike.

const NS = "http://www.w3.org/2000/svg";
const RED = "#c8102e";
const DARK = "#1b1b1f";
const WILD = "#f29d0c";

// Suit pips in a 100×100 box: paths, not font glyphs (no emoji font turns ♥ into a picture, and fill works).
const SUITS = {
  H: "M50 94C22 70 0 52 0 29 0 12 12 1 27 1c11 0 19 6 23 16C54 7 62 1 73 1c15 0 27 11 27 28 0 23-22 41-50 65Z",
  D: "M50 0 90 50 50 100 10 50Z",
  S: "M50 0c10 22 50 38 50 63 0 16-12 26-25 26-9 0-16-4-20-10 1 10 5 16 13 21H32c8-5 12-11 13-21-4 6-11 10-20 10C12 89 0 79 0 63 0 38 40 22 50 0Z",
  C: "M28 27a22 22 0 1 0 44 0a22 22 0 1 0-44 0ZM3 60a22 22 0 1 0 44 0a22 22 0 1 0-44 0ZM53 60a22 22 0 1 0 44 0a22 22 0 1 0-44 0ZM45 52c-1 24-5 38-15 48h40c-10-10-14-24-15-48Z",
};
const STAR = "M50 0 61 35h38L68 57l12 37-30-22-30 22 12-37L1 35h38Z";

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.append(node);
  return node;
}

function pip(d, x, y, size, fill, parent, cls) {
  // The path's 100-unit box scaled to `size`, its top-left at (x, y).
  return el("path", { d, fill, class: cls, transform: `translate(${x} ${y}) scale(${size / 100})` }, parent);
}

function text(value, attrs, parent) {
  const node = el("text", attrs, parent);
  node.textContent = value;
  return node;
}

let backDefined = false;

function defineBack() {
  // One pattern for every back, in a hidden SVG of its own.
  if (backDefined) return;
  backDefined = true;
  const holder = el("svg", { width: 0, height: 0, "aria-hidden": "true" });
  holder.style.position = "absolute";
  const pattern = el("pattern", {
    id: "card-back", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)",
  }, el("defs", {}, holder));
  el("rect", { width: 8, height: 8, fill: "#2a4f8f" }, pattern);
  el("rect", { width: 4, height: 8, fill: "#3a68b5" }, pattern);
  document.body.prepend(holder);
}

/** The SVG picture of a card (60×84 units): `face` as the board sends it ({code, rank, suit, wild}), a back for
 * a null code. `count` writes a number on a back (a stack, a seat's cards). */
export function cardSvg(face, count = null) {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "face", "aria-hidden": "true" });
  if (!face || face.code === null || face.code === undefined) {
    defineBack();
    el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#fff", stroke: "#8a94a6", "stroke-width": 1 }, svg);
    el("rect", { x: 5, y: 5, width: 50, height: 74, rx: 3, fill: "url(#card-back)" }, svg);
    if (count !== null && count !== undefined) {
      el("circle", { cx: 30, cy: 42, r: 20, fill: "#fff", stroke: "#2a4f8f", "stroke-width": 2 }, svg);
      text(String(count), {
        x: 30, y: 50, "text-anchor": "middle", "font-size": count > 99 ? 17 : 23, "font-weight": 700,
        fill: "#1b1b1f", class: "count",
      }, svg);
    }
    return svg;
  }
  const joker = face.code === "JK" || !SUITS[face.suit];
  const ink = joker ? "#6a1b9a" : face.suit === "H" || face.suit === "D" ? RED : DARK;
  el("rect", {
    x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#fff",
    stroke: face.wild ? WILD : "#8a94a6", "stroke-width": face.wild ? 3 : 1,
  }, svg);
  const rank = face.rank || (joker ? "J" : face.code.slice(0, -1));
  const small = rank.length > 1 ? 12 : 15;
  const corner = el("g", { class: "corner" }, svg);
  text(rank, {
    x: 9, y: 16, "text-anchor": "middle", "font-size": small, "font-weight": 700, fill: ink,
    "letter-spacing": rank.length > 1 ? -1 : 0, class: "rank",
  }, corner);
  if (joker) {
    pip(STAR, 3, 19, 12, ink, corner, "suit");
    pip(STAR, 14, 26, 32, ink, svg, "pip");
  } else {
    pip(SUITS[face.suit], 3.5, 19, 11, ink, corner, "suit");
    pip(SUITS[face.suit], 16, 30, 28, ink, svg, "pip");
  }
  // The corner again, upside down at the bottom right (a card reads either way).
  const under = corner.cloneNode(true);
  under.setAttribute("transform", "rotate(180 30 42)");
  under.setAttribute("class", "corner under");
  svg.append(under);
  if (face.wild) pip(STAR, 44, 3, 13, WILD, svg, "wild-mark");
  return svg;
}

/** A card as the page shows it: an element of class `card` (`tag`: a button for the hand) holding the picture,
 * `data-code` its code, `down` face down, `wild`, `joker`, `red`; a note under it. */
export function cardElement(face, { tag = "span", count = null } = {}) {
  const node = document.createElement(tag);
  node.className = "card";
  const down = !face || face.code === null || face.code === undefined;
  if (down) {
    node.classList.add("down");
  } else {
    node.dataset.code = face.code;
    if (face.wild) node.classList.add("wild");
    if (face.code === "JK") node.classList.add("joker");
    if (face.suit === "H" || face.suit === "D") node.classList.add("red");
    node.setAttribute("aria-label", face.code === "JK" ? `🃏 ${face.rank || ""}` : `${face.rank}${symbol(face.suit)}`);
  }
  node.append(cardSvg(face, count));
  if (!down && face.note) {
    const note = document.createElement("span");
    note.className = "card-note";
    note.textContent = face.note;
    node.append(note);
    node.title = face.note;
  }
  return node;
}

export function symbol(suit) {
  return { S: "♠", H: "♥", D: "♦", C: "♣" }[suit] || "";
}
