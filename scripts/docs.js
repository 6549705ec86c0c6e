#!/usr/bin/env node
// Regenerate docs/protocol.md from the built router (run `npm run build` first; `npm run docs` does).
const fs = require('node:fs');
const path = require('node:path');
const { renderProtocolDoc } = require('../dist/server/protocol-doc');

fs.writeFileSync(path.join(__dirname, '..', 'docs', 'protocol.md'), renderProtocolDoc());
