// `npm run docs`: writes docs/configuration.md from the settings (src/config/settings-doc.ts).
import { writeFileSync } from "node:fs";
import { renderConfigurationDoc } from "../src/config/settings-doc";

const target = new URL("../docs/configuration.md", import.meta.url);
writeFileSync(target, renderConfigurationDoc());
process.stdout.write(`wrote ${target.pathname}\n`);
