// npm run operator:check -- FILE: the onboarding gate for a candidate registry file.
// the registry module alone: the rest of the package's entry needs the workspace built (dist/)
import { checkRegistryFile } from '../src/registry.js';

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run operator:check -- FILE');
  process.exit(2);
}
const findings = checkRegistryFile(file);
if (findings.length) {
  console.error(`${file}: ${findings.length} finding(s); the registry would refuse to load:`);
  for (const f of findings) console.error(`- ${f}`);
  process.exit(1);
}
console.log(`${file}: ok, every operator type passes the onboarding gate`);
