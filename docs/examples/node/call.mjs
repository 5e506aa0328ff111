// Calls payrpc with Node's standard library only: JSON-RPC 2.0, one JSON object per line.
//
//     node docs/examples/node/call.mjs 127.0.0.1:7070
//
// Calls rpc.health, then tatra.executePayment with a broken amount and no contact, and prints
// what comes back. docs/protocol.md shows the output; a test runs this file and compares.
import net from "node:net";
import readline from "node:readline";

const address = process.argv[2];
const colon = address.lastIndexOf(":");
const socket = net.createConnection({ host: address.slice(0, colon), port: Number(address.slice(colon + 1)) });
const pending = new Map();
readline.createInterface({ input: socket }).on("line", (line) => {
  const response = JSON.parse(line);
  pending.get(response.id)?.(response);
  pending.delete(response.id);
});

let lastId = 0;
/** Sends one request line; resolves with the result, rejects with the error object. */
function call(method, params) {
  const id = ++lastId;
  const request = { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) };
  socket.write(JSON.stringify(request) + "\n");
  return new Promise((resolve, reject) =>
    pending.set(id, (response) => ("error" in response ? reject(response.error) : resolve(response.result))));
}

const health = await call("rpc.health");
console.log("rpc.health:", health.status);
try {
  await call("tatra.executePayment", { amount: "x" });
} catch (error) {
  console.log("tatra.executePayment: error", error.code, error.message);
  for (const violation of error.data.violations) {
    console.log(" ", (violation.pointer || "(root)") + ":", violation.message);
  }
}
socket.end();
