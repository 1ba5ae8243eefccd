/** "Did you mean …?" for the CLI's names; written once in the contract, which the server's control routes share. */
export { closest, didYouMean } from '../contract/suggest.js';
