/** A store that cannot be opened as this code reads it: missing, or of another schema. */
export class StoreError extends Error {}
