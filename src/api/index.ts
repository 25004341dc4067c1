// The library entry (`import { createAgent } from 'keel'`): the agent and its public types; built to dist/index.js.
export { createAgent } from './agent.js';
export type * from './types.js';
