/** The version shown under "Other" (package.json carries none yet; bump this with each release). */
export const APP_VERSION = '1.0.0';
