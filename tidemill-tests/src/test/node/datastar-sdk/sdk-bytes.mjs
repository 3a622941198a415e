// Prints what the official Datastar server SDK (@starfederation/datastar-sdk, its Node entry)
// writes for each call it is given, for DatastarSdkDifferentialTest.
//
// stdin:  a JSON array of calls, each {"method": "patchElements", "args": [...]}: a method of the
//         SDK's ServerSentEventGenerator and its arguments, options objects with their keys in
//         the order the SDK should see them (it writes option lines in that order)
// stdout: a JSON array with, per call, the exact text the SDK wrote to the response, or
//         {"error": message} if the SDK threw
import { ServerSentEventGenerator } from "@starfederation/datastar-sdk";

/** A stand-in for node's ServerResponse that keeps what is written. */
class CapturedResponse {
  constructor() {
    this.chunks = [];
  }
  writeHead() {}
  flushHeaders() {}
  write(chunk) {
    this.chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return true;
  }
  end() {}
}

const input = await new Promise((resolve) => {
  let text = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (c) => (text += c));
  process.stdin.on("end", () => resolve(text));
});

const out = JSON.parse(input).map(({ method, args }) => {
  const res = new CapturedResponse();
  const generator = new ServerSentEventGenerator({ on() {} }, res);
  try {
    generator[method](...args);
    return res.chunks.join("");
  } catch (e) {
    return { error: String(e && e.message ? e.message : e) };
  }
});
process.stdout.write(JSON.stringify(out));
