// Talking to the daemon: the JSON API's requests (daemon/web_api.h), the buttons held while one
// works, and its errors shown in words.

import { $, state } from './state.js';
import { renderControls } from './controls.js';

// Said when a request gets no answer at all (the daemon stopped, the network dropped): the
// browser's own words ("Failed to fetch") tell a player nothing.
const UNREACHABLE = 'The daemon cannot be reached: check that sudokud is running, then try again.';

// A request that got no answer, as opposed to one the daemon refused: the puzzle may be fine,
// so nothing of it is dropped.
export class Unreachable extends Error {}

export async function api(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (_) {
    throw new Unreachable(UNREACHABLE);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  if (!response.ok) {
    const message = data && data.error ? data.error : `${response.status} ${response.statusText}`;
    throw new Error(message);
  }
  return data;
}

// Runs `work` with the buttons disabled and its errors shown (by `report`, in the Puzzle card
// unless said otherwise); returns its value or undefined (state.failure then holds the error).
export async function busy(what, work, report = showError) {
  state.busy += 1;
  state.failure = null;
  setStatus(what);
  renderControls();
  try {
    const value = await work();
    showError('');
    return value;
  } catch (error) {
    state.failure = error;
    report(error.message);
    return undefined;
  } finally {
    state.busy -= 1;
    if (!state.busy) setStatus('');
    renderControls();
  }
}

// The error box, brought into sight when it shows: on a phone the button pressed may be a
// screen away from it.
export function showError(message) {
  const box = $('error');
  box.textContent = message;
  box.hidden = !message;
  if (!message) return;
  const where = box.getBoundingClientRect();
  if (where.top < 0 || where.bottom > window.innerHeight) box.scrollIntoView({ block: 'nearest' });
}

function setStatus(text) {
  $('status').textContent = text;
}
