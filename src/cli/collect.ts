/** A repeatable option's argument parser for commander: each use appends its value. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
