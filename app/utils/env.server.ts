/** The web app's settings from the environment, parsed once (server/config.ts checks them at start). */
import path from 'node:path';

export const DATA_DIR = path.resolve(process.env.DATA_DIR || 'data');
export const SESSION_SECRET = process.env.SESSION_SECRET || '';
