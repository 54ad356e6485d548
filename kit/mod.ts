/**
 * The spine kit: the bundled spine Worker and its templates, what writes a kit to a
 * folder and deploys it with wrangler, and the local development server.
 *
 * @module
 */
export {};
