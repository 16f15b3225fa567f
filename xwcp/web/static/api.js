// Talking to the server: JSON in and out with a time limit, every failure a readable message (never a hang). Every
// JSON body carries the puzzle's language when it is not English (the server picks that language's word list).
import { state } from "./state.js";

export const DEFAULT_TIMEOUT_MS = 25000; // above the server's own 20 s cap: its 503 arrives first
// This tab's name to the server, which shares its work client by client (xwcp/web/lanes.py): a random id per tab.
export const CLIENT_ID = globalThis.crypto && crypto.randomUUID ? crypto.randomUUID()
  : Math.random().toString(36).slice(2) + Date.now().toString(36);

export class ApiError extends Error {
  constructor(message, status = 0) {
    super(message);
    this.status = status;
  }
}

// fetch with a time limit and an optional outer AbortSignal; a superseded request rejects with AbortError.
export async function request(path, { method = "POST", body, json = true, signal, timeoutMs = DEFAULT_TIMEOUT_MS,
                                      headers = {} } = {}) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; controller.abort(); }, timeoutMs);
  const forward = () => controller.abort();
  if (signal) {
    if (signal.aborted) controller.abort();
    signal.addEventListener("abort", forward);
  }
  let response;
  try {
    const init = { method, signal: controller.signal, headers: { "X-Xwcp-Client": CLIENT_ID, ...headers } };
    if (body !== undefined) {
      init.body = json ? JSON.stringify(withLanguage(body)) : body;
      if (json) init.headers["Content-Type"] = "application/json";
    }
    response = await fetch(path, init);
  } catch (err) {
    if (timedOut) throw new ApiError(`the server took longer than ${Math.round(timeoutMs / 1000)} s to answer ${path}; try again`);
    if (err.name === "AbortError") throw err;
    throw new ApiError("the server does not answer: is `xwcp serve` still running?");
  } finally {
    clearTimeout(timer);
    if (signal) signal.removeEventListener("abort", forward);
  }
  if (!response.ok) {
    let message = `HTTP ${response.status}`;
    try { message = (await response.json()).error || message; } catch { /* not JSON */ }
    throw new ApiError(message, response.status);
  }
  return response;
}

// `body` with the puzzle's language (a WebSocket's request too: autofill.js, help.js, design.js).
export function withLanguage(body) {
  if (!body || typeof body !== "object" || Array.isArray(body) || "language" in body || state.language === "en") return body;
  return { ...body, language: state.language };
}

export async function post(path, body, options = {}) {
  return (await request(path, { ...options, body })).json();
}

export async function get(path, options = {}) {
  return (await request(path, { ...options, method: "GET" })).json();
}

// An NDJSON answer (/api/check?stream=1): `onLine` gets each object as it arrives (the verdict, then the result).
export async function postLines(path, body, onLine, options = {}) {
  const reader = (await request(path, { ...options, body })).body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    buffered += decoder.decode(value || new Uint8Array(), { stream: !done });
    let newline;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim()) onLine(JSON.parse(line));
    }
    if (done) return;
  }
}

export function isAbort(err) { return err && err.name === "AbortError"; }
