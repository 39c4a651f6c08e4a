// Cards drawn as SVG: a face (rank and suit in the corners, a large suit in the middle),
// a back (down card), or an empty slot. Card text is "As", "Td", …; null is a hidden card.
import { t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const RANKS = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };

function svg(tag, attrs = {}, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
}

export function cardLabel(code) {
  if (!code) return t("card.hidden");
  return t("card.label", { rank: t(`rank.${code[0].toUpperCase()}`), suit: t(`suit.${code[1].toLowerCase()}`) });
}

/** An <svg> for one card; opts.small draws a smaller card. */
export function cardSvg(code, opts = {}) {
  const root = svg("svg", {
    viewBox: "0 0 60 84",
    class: `card${code ? "" : " card-back"}${opts.small ? " card-small" : ""}${opts.up ? " card-up" : ""}`,
    role: "img",
    "aria-label": cardLabel(code),
    "data-raw": "",
    "data-card": code || "",
  });
  if (!code) {
    root.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "back" }));
    root.append(svg("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, class: "back-inner" }));
    root.append(svg("path", { d: "M30 20 L44 42 L30 64 L16 42 Z", class: "back-mark" }));
    return root;
  }
  const rank = code[0].toUpperCase();
  const suit = code[1].toLowerCase();
  const color = suit === "h" || suit === "d" ? "red" : "black";
  const r = RANKS[rank] || rank;
  root.classList.add(`suit-${suit}`, color);
  root.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "face" }));
  root.append(svg("text", { x: 6, y: 20, class: "rank" }, r));
  root.append(svg("text", { x: 6, y: 36, class: "suit-small" }, SUITS[suit]));
  root.append(svg("text", { x: 34, y: 70, class: "suit-big", "text-anchor": "middle" }, SUITS[suit]));
  return root;
}

export function cardRow(codes, opts = {}) {
  const div = document.createElement("div");
  div.className = "cards";
  for (const c of codes) div.append(cardSvg(c, opts));
  return div;
}
