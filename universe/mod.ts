/**
 * The universe Worker: the public directory of agents, its pages and its cron.
 * Runs on workerd.
 *
 * @module
 */
export {};
