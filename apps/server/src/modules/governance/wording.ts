/** `count` with its noun, singular for one: "1 policy", "2 policies" (the evidence report and its reasons). */
export const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** A look-back window in days, as said in reasons: "1 day", "30 days". */
export const days = (count: number) => counted(count, 'day', 'days');
