// The baseline: a bare node:http server answering every request with the JSON body given as its
// argument (the benchmark passes confctl's own `GET /users/{id}` answer, so both send the same
// bytes). Prints its origin once it listens.
import http from 'node:http';

const body = process.argv[2];
const server = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(body));
server.listen(0, '127.0.0.1', () => console.log(`Listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
