// An HTTP proxy in front of an S3 server for fault tests: forwards every request to
// 127.0.0.1:UPSTREAM unchanged, except while the file MODE_FILE exists: then it answers
// every request with HTTP 500 and an S3 InternalError body. Prints "proxy listening on PORT",
// and "served 500" for each refused request.
// Usage: node fault_proxy.mjs UPSTREAM_PORT MODE_FILE
import http from 'node:http';
import { existsSync } from 'node:fs';

const [upstreamPort, modeFile] = process.argv.slice(2);
const server = http.createServer((req, res) => {
  if (existsSync(modeFile)) {
    req.resume();
    req.on('end', () => {
      console.log('served 500');
      res.writeHead(500, { 'Content-Type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code>' +
              '<Message>injected by fault_proxy</Message></Error>');
    });
    return;
  }
  const upstream = http.request(
    { host: '127.0.0.1', port: Number(upstreamPort), method: req.method, path: req.url,
      headers: req.headers },
    (up) => {
      res.writeHead(up.statusCode, up.headers);
      up.pipe(res);
    });
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
});
server.listen(0, '127.0.0.1', () => console.log(`proxy listening on ${server.address().port}`));
