/** Entry point of the api-keys module: what other modules, the flows and the HTTP contract may use. Everything else in api-keys/ is private. */
export { authenticateApiKey } from './commands/authenticate-api-key.js';
export { createApiKey, listApiKeys, revokeApiKey, toApiKeyBody } from './commands/manage-api-keys.js';
