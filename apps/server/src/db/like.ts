/** Escapes `%`, `_` and `\` so that user text matches itself in LIKE and ILIKE patterns. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);
