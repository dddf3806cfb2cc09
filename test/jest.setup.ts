import { setLogLevel, levels, type Level } from '@nvcf/logging';

// tests are quiet unless LOG_LEVEL asks otherwise (LOG_LEVEL=debug npm test)
const wanted = process.env.LOG_LEVEL as Level | undefined;
setLogLevel(wanted && levels.includes(wanted) ? wanted : 'silent');
