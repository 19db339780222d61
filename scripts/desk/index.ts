import { startDesk } from './serve.js';

/**
 * npm run desk: the reply desk in a browser without an MCP Apps host. The server runs on the
 * embedded sandbox; open the printed address, pick a view, and use it as a person would.
 */
const desk = await startDesk(['--sandbox', '--workspace', 'acme', '--log-level', 'warn']);
process.stdout.write(`Reply desk: ${desk.url}\n(the embedded sandbox, workspace acme; Ctrl-C stops it)\n`);
const stop = () => void desk.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
