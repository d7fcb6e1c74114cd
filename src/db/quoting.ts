/** A string as an SQL literal, for the statements that take no parameters (DDL). */
export const literal = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/** A name as an SQL identifier. */
export const identifier = (value: string): string => `"${value.replace(/"/g, '""')}"`;
