/**
 * The service worker's names, shared by the build (scripts/build/service-worker.ts), the server
 * (which serves the worker, or the kill switch in its place) and the client (which registers it).
 */

/** The worker's URL: at the root, so its scope is the whole site. Never renamed (decision 052). */
export const SERVICE_WORKER_PATH = '/sw.js';
/** The kill switch (a worker that unregisters itself), in dist/, served at SERVICE_WORKER_PATH when SERVICE_WORKER=off. */
export const KILL_SWITCH_FILE = 'sw-kill-switch.js';
