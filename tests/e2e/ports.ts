/**
 * Each Playwright worker drives its own app (its own upstream and data) on its own port, so that two workers share
 * neither a market switch nor a frozen upstream. Worker i's app listens on E2E_PORT + 100 × i; the ports between are
 * for what a spec starts beside it (a second web server, the many-nodes shape).
 */
export const BASE_PORT = Number(process.env.E2E_PORT ?? 3210);

export const WORKERS = Number(process.env.E2E_WORKERS ?? 2);

export const appPort = (worker: number) => BASE_PORT + 100 * worker;

/** This worker's app port (Playwright sets TEST_PARALLEL_INDEX in each worker, 0 … workers − 1). */
export const myAppPort = () => appPort(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
