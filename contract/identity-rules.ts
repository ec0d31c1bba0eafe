/** The identity form's rule that the browser needs too, apart from the call's schemas (zod stays out of pages' scripts). */

/** An ID or passport number: letters, digits and the separators printed on documents. */
export const ID_NUMBER = /^[A-Za-z0-9][A-Za-z0-9 ()-]{3,28}[A-Za-z0-9)]$/;
