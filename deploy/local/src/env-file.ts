// one reader of .services/env for every entrypoint (the ops tools use it too)
export { readEnvFile } from '@nvcf/config';
