// Sound: a soft two-note chime made with WebAudio (no files), and the speaker icon.
import { h } from "./dom.js";
import { store } from "./common.js";

let audio;
export function soundOn() {
  return store.get("sound") !== "off";
}

export function chime() {
  if (!soundOn()) return;
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    [660, 880].forEach((freq, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.14);
      gain.gain.exponentialRampToValueAtTime(0.12, now + i * 0.14 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.14 + 0.35);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.14);
      osc.stop(now + i * 0.14 + 0.4);
    });
  } catch {
    /* no audio: fine */
  }
}

export function speakerIcon(on) {
  return h(
    "svg",
    { viewBox: "0 0 24 24", width: 24, height: 24, "aria-hidden": "true", focusable: "false" },
    h("path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }),
    on
      ? h("path", {
          d: "M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12",
          fill: "none",
          stroke: "currentColor",
          "stroke-width": 2,
          "stroke-linecap": "round",
        })
      : h("path", {
          d: "M16 9l5 6M21 9l-5 6",
          fill: "none",
          stroke: "currentColor",
          "stroke-width": 2,
          "stroke-linecap": "round",
        }),
  );
}
