export { RecentMap, RecentSet } from './recent.js';
