// Translations: French and English dictionaries (i18n/*.json), switchable at run time.
// Every translated element carries data-i18n (its key) and, if any, data-i18n-params (JSON),
// so a language switch re-translates the whole page in place.
export const LANGS = ["en", "fr"];
const dicts = {};
let lang = "en";
const listeners = new Set();

export async function loadLanguages(base = "i18n/") {
  await Promise.all(
    LANGS.map(async (l) => {
      const r = await fetch(`${base}${l}.json`);
      if (!r.ok) throw new Error(`cannot load ${l}.json`);
      dicts[l] = await r.json();
    }),
  );
}

export function currentLang() {
  return lang;
}

export function initialLang() {
  const saved = localStorage.getItem("croupier.lang");
  if (LANGS.includes(saved)) return saved;
  const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
  return LANGS.includes(nav) ? nav : "en";
}

/** Translate `key` with `{name}` placeholders filled from `params`. */
export function t(key, params = {}) {
  const d = dicts[lang] || {};
  let s = d[key];
  if (s === undefined) s = (dicts.en || {})[key];
  if (s === undefined) {
    console.warn(`missing translation: ${key}`);
    return key;
  }
  // Plurals without "(s)": `{n|card|cards}` is the singular or the plural form by `n`
  // (French takes the singular for 0 and 1, English for 1 only).
  s = s.replace(/\{(\w+)\|([^|}]*)\|([^}]*)\}/g, (_, k, one, many) => {
    const n = Math.abs(Number(params[k]));
    return (lang === "fr" ? n < 2 : n === 1) ? one : many;
  });
  return s.replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
}

export function has(key) {
  return key in (dicts[lang] || {});
}

/** Translate an element (and its data-i18n-attr attributes) in place. */
export function translateElement(node) {
  const key = node.getAttribute("data-i18n");
  const params = node.dataset.i18nParams ? JSON.parse(node.dataset.i18nParams) : {};
  if (key) node.textContent = t(key, params);
  const attrs = node.getAttribute("data-i18n-attr");
  if (attrs) {
    for (const pair of attrs.split(";")) {
      const [attr, k] = pair.split(":").map((s) => s.trim());
      if (attr && k) node.setAttribute(attr, t(k, params));
    }
  }
}

export function translateAll(root = document) {
  for (const node of root.querySelectorAll("[data-i18n],[data-i18n-attr]")) translateElement(node);
}

export function setLang(l) {
  if (!LANGS.includes(l)) return;
  lang = l;
  localStorage.setItem("croupier.lang", l);
  document.documentElement.lang = l;
  translateAll();
  for (const fn of listeners) fn(l);
}

export function onLangChange(fn) {
  listeners.add(fn);
}
