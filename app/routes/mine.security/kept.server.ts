/**
 * What the Security screen keeps between its pages, on the server and for this session only: the authenticator's
 * pending secret while it is being set up, and the recovery codes until the one page that shows them.
 */
import { dropRecord, keepRecord, readRecord } from '~/utils/session.server';
import { ownerOf } from '~/utils/step-up.server';

const SETUP_MS = 10 * 60 * 1000;

export interface PendingSetup {
  secret: string;
  uri: string;
}

const setupId = async (request: Request) => `totp-setup-${await ownerOf(request)}`;
const codesId = async (request: Request) => `recovery-${await ownerOf(request)}`;

export const keepSetup = async (request: Request, setup: PendingSetup) => keepRecord(await setupId(request), setup, SETUP_MS);
export const pendingSetup = async (request: Request) => readRecord<PendingSetup>(await setupId(request));
export const dropSetup = async (request: Request) => dropRecord(await setupId(request));

export const keepRecoveryCodes = async (request: Request, codes: string[]) => keepRecord(await codesId(request), codes, SETUP_MS);

/** The recovery codes, once: read and forgotten in the same step (a reload shows them no more). */
export async function takeRecoveryCodes(request: Request): Promise<string[] | null> {
  const id = await codesId(request);
  const codes = await readRecord<string[]>(id);
  if (codes) await dropRecord(id);
  return codes;
}
