export * from './types';
export * from './errors';
export * from './decider';
export * from './event-store';
export * from './command-handler';
export * from './subscription';
export * from './postgres-transport';
export * from './projection';
