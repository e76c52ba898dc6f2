import { type ChildProcess, spawn } from 'node:child_process';

// `npm run dev`: the API (restarted on change) behind Vite's dev server, which proxies /api,
// /uploads and /socket.io to it. Browsers use http://localhost:5173.
const apiPort = process.env.PORT ?? '3000';
const webOrigin = 'http://localhost:5173';

const children: ChildProcess[] = [
  spawn('npx', ['tsx', 'watch', 'api/src/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort, PUBLIC_ORIGIN: process.env.PUBLIC_ORIGIN ?? webOrigin },
  }),
  spawn('npx', ['vite', 'web'], {
    stdio: 'inherit',
    env: { ...process.env, API_URL: `http://127.0.0.1:${apiPort}` },
  }),
];

const stop = () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
};
for (const child of children)
  child.once('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
