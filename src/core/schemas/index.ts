export * from './common.js';
export * from './bundle.js';
export * from './outcome.js';
export * from './appointment.js';
export * from './chat.js';
export * from './notification.js';
export * from './medication.js';
