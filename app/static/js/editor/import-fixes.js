// The import report's one-click fixes (editor/import.js shows them): Swap, for two fields the reading may
// have mixed up (a note's `swap` path, or an "order" note's pair: job title and employer, degree and school),
// and Split, for a bullet that was probably two or more run together (a "merged" note's `parts`). A fix changes the
// form through the editor's edit(), one step of its undo history, saved like typing. Whether a note is
// handled is read from the form's values each time, not remembered: undo shows the fix again, and a report
// seen again after a reload knows its swaps and splits by the values the file gave (the note's `text`).
import { getPath } from "./entries.js";

const FORM = "contentJson."; // the form's paths (data-field) are the content's under contentJson
// The importer's names for what the form keeps under another: the header's headline is personalInfo.label.
const ALIASES = { "personalInfo.headline": "personalInfo.label" };
// What an "order" note's field was told apart from by its place alone.
const ORDER_PAIRS = { position: "company", company: "position", degree: "school", school: "degree" };

export const contentPath = (path) => ALIASES[path] ?? path;

const isText = (value) => value == null || typeof value === "string";

// Where `test(i)` holds: at `index` first, else the first place it holds; -1 when none.
function place(length, index, test) {
  if (index < length && test(index)) return index;
  for (let i = 0; i < length; i += 1) if (test(i)) return i;
  return -1;
}

class Swap {
  constructor(note, other) {
    this.kind = "swap";
    this.note = note;
    this.paths = [note.path, other];
    this.after = null; // the values this page's last swap left, for a note without the file's text
  }

  values(state) { return this.paths.map((path) => getPath(state, FORM + path)); }

  // Offered while both fields hold text (an address's parts, not the address object), one of them some.
  usable(state) {
    const [a, b] = this.values(state);
    return this.done(state) || (isText(a) && isText(b) && Boolean(a || b));
  }

  // Swapped: the text the file gave this field is now in the other one (or the values are the swap's).
  done(state) {
    const [a, b] = this.values(state);
    const imported = this.note.text;
    if (imported && b === imported && a !== imported) return true;
    return this.after !== null && a === this.after[0] && b === this.after[1] && a !== b;
  }

  // [[path, value]] for edit(): the two values exchanged (swapping back is the same exchange).
  changes(state) {
    const [a, b] = this.values(state).map((value) => value ?? "");
    this.after = this.done(state) ? null : [b, a];
    return [[FORM + this.paths[0], b], [FORM + this.paths[1], a]];
  }

  where() { return FORM + this.paths[0]; }
}

class Split {
  constructor(note, list, index) {
    this.kind = "split";
    this.note = note;
    this.list = list;     // "workExperience.0.highlights"
    this.index = index;   // the bullet's place in it when imported
    this.pieces = note.parts.map((part) => part.trim());
    this.whole = note.text || this.pieces.join(" ");
  }

  items(state) {
    const items = getPath(state, FORM + this.list);
    return Array.isArray(items) ? items : [];
  }

  // Where the parts are, one after the other (-1: not split).
  parts(state) {
    const items = this.items(state);
    const count = this.pieces.length;
    return place(items.length - count + 1, this.index,
                 (i) => this.pieces.every((piece, at) => items[i + at] === piece));
  }

  // Where the bullet is as the file gave it (-1: edited or gone since).
  bullet(state) {
    const items = this.items(state);
    return place(items.length, this.index, (i) => items[i] === this.whole);
  }

  usable(state) { return this.done(state) || this.bullet(state) >= 0; }

  done(state) { return this.parts(state) >= 0; }

  // Split, or (done) join the two parts again into the bullet as it was.
  changes(state) {
    const items = [...this.items(state)];
    const split = this.parts(state);
    if (split >= 0) items.splice(split, this.pieces.length, this.whole);
    else items.splice(this.bullet(state), 1, ...this.pieces);
    return [[FORM + this.list, items]];
  }

  where() { return FORM + this.list; }
}

// The fix `note` offers, or null: {kind, usable(state), done(state), changes(state), where()}.
export function fixOf(note) {
  if (note.reason === "merged") {
    const found = /^(.+)\.(\d+)$/.exec(note.path);
    const parts = note.parts;
    if (!found || !Array.isArray(parts) || parts.length < 2 || !parts.every((p) => typeof p === "string" && p.trim())) {
      return null;
    }
    return new Split(note, found[1], Number(found[2]));
  }
  if (note.swap) return new Swap(note, contentPath(note.swap));
  if (note.reason !== "order") return null;
  const keys = note.path.split(".");
  const other = ORDER_PAIRS[keys.at(-1)];
  return other ? new Swap(note, [...keys.slice(0, -1), other].join(".")) : null;
}
