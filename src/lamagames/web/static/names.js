// The server's rule for display names (schemas.py Name, core/names.py refused_character),
// checked in the browser before a name is sent (issue 19: a bad name got the server's
// technical answer, in English, or no answer at all).

/** Longest display name the server takes, in code points (schemas.py Name, max_length). */
export const NAME_MAX = 32;

// Python's str.isspace characters: what the server's strip() takes off both ends.
const SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const EDGES = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, "gu");
const REFUSED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const NOT_BESIDE_JOINER = /[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}]/u;
const ZWJ = "\u200d";
const BLACK_FLAG = "\u{1f3f4}";
const isTag = (c) => c >= "\u{e0020}" && c <= "\u{e007f}";

/** A name without the whitespace the server strips (Python's str.strip()). */
export function stripName(name) {
  return name.replace(EDGES, "");
}

/** The length of a name as the server counts it: code points, not UTF-16 units. */
export function nameLength(name) {
  return [...name].length;
}

// core/names.py joins_emoji: a zero-width joiner between two visible characters, or a tag
// character of a subdivision flag (after the black flag or another tag).
function joinsEmoji(chars, i) {
  const c = chars[i];
  if (c === ZWJ)
    return (
      i > 0 && i < chars.length - 1 && !NOT_BESIDE_JOINER.test(chars[i - 1]) && !NOT_BESIDE_JOINER.test(chars[i + 1])
    );
  if (isTag(c)) {
    const before = i ? chars[i - 1] : "";
    return before === BLACK_FLAG || isTag(before);
  }
  return false;
}

/**
 * What is wrong with a name the person typed, as a catalog key, or null if the server takes
 * it: "form.nameEmpty" (nothing but spaces), "form.nameBadChar" (a control or
 * text-direction character, emoji joiners kept), "form.nameTooLong" (over NAME_MAX code
 * points once stripped).
 */
export function nameProblem(typed) {
  const name = stripName(typed);
  if (!name) return "form.nameEmpty";
  const chars = [...name];
  if (chars.some((c, i) => REFUSED.test(c) && !(/\p{Cf}/u.test(c) && joinsEmoji(chars, i)))) return "form.nameBadChar";
  if (chars.length > NAME_MAX) return "form.nameTooLong";
  return null;
}
