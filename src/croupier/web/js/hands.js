// Hand names arrive in English from the engine ("Two pair, kings and nines"); this turns the
// known forms into the current language and leaves anything else as it came.
import { t } from "./i18n.js";

const NAMES = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"];
const PLURAL = Object.fromEntries(NAMES.map((n) => [n === "six" ? "sixes" : `${n}s`, n]));
const one = (w) => t(`rankname.${w}`);
const many = (w) => t(`rankplural.${PLURAL[w]}`);
// "of aces" / "d'as", "de rois": French elides before a vowel.
const of = (w) => t(`rankof.${PLURAL[w]}`);
// Rank letters written as words where the language does ("As-Roi-Dame-9-7" in French).
const letters = (text) => text.split("-").map((x) => t(`rankletter.${x}`)).join("-");

const FORMS = [
  [/^Royal flush$/, () => t("handname.royal_flush")],
  [/^Straight flush, (\w+) high$/, (m) => t("handname.straight_flush", { a: one(m[1]) })],
  [/^Four of a kind, (\w+)$/, (m) => t("handname.four_of_a_kind", { a: of(m[1]) })],
  [/^Full house, (\w+) full of (\w+)$/, (m) => t("handname.full_house", { a: many(m[1]), b: many(m[2]) })],
  [/^Flush, ([2-9TJQKA-]+)$/, (m) => t("handname.flush", { a: letters(m[1]) })],
  [/^Straight, (\w+) high$/, (m) => t("handname.straight", { a: one(m[1]) })],
  [/^Three of a kind, (\w+)$/, (m) => t("handname.three_of_a_kind", { a: of(m[1]) })],
  [/^Two pair, (\w+) and (\w+)$/, (m) => t("handname.two_pair", { a: many(m[1]), b: many(m[2]) })],
  [/^Pair of (\w+)$/, (m) => t("handname.pair", { a: of(m[1]) })],
  [/^High card, ([2-9TJQKA-]+)$/, (m) => t("handname.high_card", { a: letters(m[1]) })],
];

export function handName(text) {
  for (const [re, fn] of FORMS) {
    const m = re.exec(text);
    if (m && m.slice(1).every((w) => /^[2-9TJQKA-]+$/.test(w) || NAMES.includes(w) || w in PLURAL)) return fn(m);
  }
  return text;
}
