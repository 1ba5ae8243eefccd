/**
 * Actions of `confctl admin …`, loaded only when an admin command runs. Each opens the data
 * directory, does its work in the store, closes it and prints the result in the chosen format.
 */
export * from './setup.js';
export * from './provider.js';
export * from './lookup.js';
