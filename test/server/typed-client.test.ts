import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuxHome, root } from '../helpers/home';

/**
 * The typed client exactly as a user's script gets it: a project with `fux` in node_modules that
 * writes `import { connect } from 'fux'`, type-checked by tsc against the published .d.ts and run by node.
 */
let home: FuxHome;
let project: string;
beforeAll(async () => {
  home = new FuxHome();
  await home.startServer();
  project = path.join(home.dir, 'project');
  fs.mkdirSync(path.join(project, 'node_modules'), { recursive: true });
  fs.symlinkSync(root, path.join(project, 'node_modules', 'fux'));
  // A user's TypeScript project has @types/node of its own.
  fs.symlinkSync(path.join(root, 'node_modules', '@types'), path.join(project, 'node_modules', '@types'));
  fs.writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'node16',
        moduleResolution: 'node16',
        target: 'ES2022',
        outDir: 'out',
        skipLibCheck: true,
        types: ['node'],
      },
      files: ['script.mts'],
    }),
  );
});
afterAll(() => home.close());

const tsc = path.join(root, 'node_modules', '.bin', 'tsc');

test('a user script imports connect from fux, opens a pane, types into it and reads it back', () => {
  fs.writeFileSync(
    path.join(project, 'script.mts'),
    `import { connect } from 'fux';

const fux = await connect();
const { id } = await fux.client.new.mutate({ argv: ['cat'], cwd: process.cwd() });
await fux.client.sendKeys.mutate({ id, keys: ['typed from a script', 'Enter'] });
let text = '';
for (let i = 0; i < 200 && !text.includes('typed from a script\\ntyped'); i++) {
  text = (await fux.client.capture.query({ id })).text;
  await new Promise((r) => setTimeout(r, 20));
}
const { workspaces } = await fux.client.list.query({});
console.log(JSON.stringify({ id, panes: workspaces[0].panes.length, text: text.split('\\n').slice(0, 2) }));
fux.close();
`,
  );
  const check = spawnSync(tsc, ['-p', project], { encoding: 'utf8' });
  expect(check.stdout + check.stderr).toBe('');
  const run = spawnSync(process.execPath, [path.join(project, 'out', 'script.mjs')], {
    env: home.env,
    cwd: project,
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual({
    id: 1,
    panes: 1,
    text: ['typed from a script', 'typed from a script'],
  });
});

test("the router's types reach the script: a wrong input type is a compile error", () => {
  fs.writeFileSync(
    path.join(project, 'script.mts'),
    `import { connect } from 'fux';
const fux = await connect();
await fux.client.capture.query({ id: 'three' });
`,
  );
  const check = spawnSync(tsc, ['-p', project, '--noEmit'], { encoding: 'utf8' });
  expect(check.status).not.toBe(0);
  expect(check.stdout).toMatch(/script\.mts\(3,.*Type 'string' is not assignable to type 'number'/);
});
