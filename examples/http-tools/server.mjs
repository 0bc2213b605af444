// The endpoint of this example's HTTP tool: POST /convert-temperature with {"value": number, "from": "C" | "F"}
// answers {"value": number, "unit": "C" | "F"} (the other unit). No dependencies: node server.mjs
// Listens on 127.0.0.1, port $PORT (default 8787; 0 picks a free one, printed on start).
import http from 'node:http';

const MAX_BODY = 64 * 1024;

function answer(response, status, value) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

function convert({ value, from }) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return { error: '`value` must be a finite number' };
  if (from === 'C') return { value: (value * 9) / 5 + 32, unit: 'F' };
  if (from === 'F') return { value: ((value - 32) * 5) / 9, unit: 'C' };
  return { error: '`from` must be "C" or "F"' };
}

const server = http.createServer((request, response) => {
  if (request.url !== '/convert-temperature') return answer(response, 404, { error: `no such endpoint: ${request.url}` });
  if (request.method !== 'POST') return answer(response, 405, { error: 'POST the arguments as JSON' });
  const chunks = [];
  let size = 0;
  request.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY) {
      answer(response, 413, { error: 'the body is too large' });
      request.destroy();
    } else chunks.push(chunk);
  });
  request.on('end', () => {
    let args;
    try {
      args = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return answer(response, 400, { error: 'the body is not JSON' });
    }
    const result = convert(typeof args === 'object' && args !== null ? args : {});
    answer(response, result.error ? 400 : 200, result);
  });
});

server.listen(Number(process.env.PORT ?? 8787), '127.0.0.1', () => {
  console.log(`convert-temperature listening on http://127.0.0.1:${server.address().port}/convert-temperature`);
});
