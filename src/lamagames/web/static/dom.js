// Tiny DOM helpers: h("div", {class: "x", onclick: f}, child, "text", ...) builds HTML (and the
// few SVG tags the LAMA Dice icons use); s("g", {...}, ...) always builds SVG.
const SVG_NS = "http://www.w3.org/2000/svg";
const SVG_TAGS = ["svg", "g", "path", "rect", "circle", "ellipse", "line", "polygon"];

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function h(tag, attrs = {}, ...children) {
  const el = SVG_TAGS.includes(tag) ? document.createElementNS(SVG_NS, tag) : document.createElement(tag);
  return fill(el, attrs, children);
}

export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear(el) { while (el.firstChild) el.firstChild.remove(); return el; }
