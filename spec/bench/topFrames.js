// Summarises a .cpuprofile (from `node --cpu-prof`): self time per function, top N, as a markdown table.
// Usage: node spec/bench/topFrames.js file.cpuprofile [N]
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const [file, n = '25'] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const node = byId.get(profile.samples[i]);
  const f = node.callFrame;
  const where = f.url ? `${path.basename(f.url)}:${f.lineNumber + 1}` : '';
  const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
  self.set(key, (self.get(key) || 0) + (dt[i] || 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const idle = (self.get('(idle)') || 0) + (self.get('(program)') || 0);
const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(n));
console.log(`total ${(total / 1000).toFixed(0)} ms sampled, idle+program ${((idle / total) * 100).toFixed(1)} %`);
console.log('| self % | self ms | function |\n|---:|---:|---|');
for (const [key, us] of rows) console.log(`| ${((us / total) * 100).toFixed(1)} | ${(us / 1000).toFixed(0)} | ${key} |`);
