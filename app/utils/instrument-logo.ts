/**
 * Where the page finds an instrument's logo: a small PNG the web server draws from the upstream's SVG
 * (routes/logos.$file.ts). The upstream's SVGs carry text, and a phone paints each SVG picture in a document
 * of its own, fonts and all: on `/` with 4× CPU the first rows' logos took one 140–260 ms paint task (traced),
 * a PNG almost nothing.
 */
export const instrumentLogo = (code: string): string => `/logos/${code.toLowerCase()}.png`;
