/**
 * The `agent` command: argument parsing, output and exit codes, thin over `hub/`
 * and `kit/`.
 *
 * @module
 */
export {};
