// Tiny DOM helpers. `el(tag, props, ...children)`: props.t = translation key (with
// props.params), props.raw = text that is data, not words to translate (names, numbers).
import { t, translateElement } from "./i18n.js";

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "t") {
      node.setAttribute("data-i18n", v);
    } else if (k === "params") {
      node.dataset.i18nParams = JSON.stringify(v);
    } else if (k === "raw") {
      node.textContent = String(v);
      node.setAttribute("data-raw", "");
    } else if (k === "attrT") {
      node.setAttribute("data-i18n-attr", Object.entries(v).map(([a, key]) => `${a}:${key}`).join(";"));
    } else if (k === "class") {
      node.className = v;
    } else if (k === "dataset") {
      Object.assign(node.dataset, v);
    } else if (k.startsWith("on") && typeof v === "function") {
      node.addEventListener(k.slice(2), v);
    } else if (v === true) {
      node.setAttribute(k, "");
    } else {
      node.setAttribute(k, String(v));
    }
  }
  if (props.t || props.attrT) translateElement(node);
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** Draw ``node``'s children again with ``draw(node)`` only when ``key`` (a string
 * saying what they show) changed since they were last drawn. The table draws on every
 * event: a button or a box drawn again between a press and its release loses the click,
 * and an open list closes; while nothing they show changed they stay the same elements.
 * Returns whether it drew. */
export function redraw(node, key, draw) {
  if (node.drawnKey === key) return false;
  clear(node);
  node.drawnKey = key;
  draw(node);
  return true;
}

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

/** Set a translated text on an existing element. */
export function setT(node, key, params) {
  node.setAttribute("data-i18n", key);
  if (params) node.dataset.i18nParams = JSON.stringify(params);
  else delete node.dataset.i18nParams;
  node.textContent = t(key, params || {});
}

export function setRaw(node, text) {
  node.removeAttribute("data-i18n");
  node.setAttribute("data-raw", "");
  node.textContent = String(text);
}

export function fmt(n) {
  return Number(n).toLocaleString("en-US").replace(/,/g, "\u202f");
}
