/**
 * The stand-ins the server benchmark uses when nginx is not installed, each a tiny node:http server
 * on 127.0.0.1: `--dir DIR` serves the files with serve-handler (the static baseline); `--bytes N`
 * answers every request with the same N bytes (the ceiling that shows the load generator's limit).
 *
 *   node --import tsx bench/static-server.ts --port 8081 (--dir DIR | --bytes N)
 */
import http from 'node:http';
import { parseArgs } from 'node:util';
import handler from 'serve-handler';

const { values } = parseArgs({
  options: { port: { type: 'string' }, dir: { type: 'string' }, bytes: { type: 'string' } },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port <= 0 || (values.dir === undefined) === (values.bytes === undefined)) {
  process.stderr.write('usage: static-server.ts --port N (--dir DIR | --bytes N)\n');
  process.exit(2);
}

let server: http.Server;
if (values.dir !== undefined) {
  const dir = values.dir;
  // Files as they are: serve-handler's clean URLs would answer /index.html with a 301 to /.
  server = http.createServer((req, res) => void handler(req, res, { public: dir, cleanUrls: false }));
} else {
  const body = Buffer.alloc(Number(values.bytes), 'x');
  const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(body.length) };
  server = http.createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  });
}
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
