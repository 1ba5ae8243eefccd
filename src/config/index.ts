/** Client profiles (decisions §9). */
export * from './profiles.js';
export * from './settings.js';
export * from './keyring.js';
export * from './profiles-read.js';
