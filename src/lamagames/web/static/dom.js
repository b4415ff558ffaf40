// Tiny DOM helpers: h("div", {class: "x", onclick: f}, child, "text", ...) builds HTML (and the
// few SVG tags the LAMA Dice icons use); s("g", {...}, ...) always builds SVG; patch(live, fresh)
// updates a live tree in place to look like a freshly built one (keyed updates).
const SVG_NS = "http://www.w3.org/2000/svg";
const SVG_TAGS = ["svg", "g", "path", "rect", "circle", "ellipse", "line", "polygon"];

// Event handlers live in el.__on (one dispatching listener per event type), so patch() can
// hand an element that stays in the page the handlers of its fresh twin.
function dispatch(e) {
  const fn = e.currentTarget.__on && e.currentTarget.__on[e.type];
  if (fn) fn.call(e.currentTarget, e);
}

function setHandler(el, type, fn) {
  if (!el.__on) el.__on = {};
  if (!(type in el.__on)) el.addEventListener(type, dispatch);
  el.__on[type] = fn;
}

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") setHandler(el, key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    // through the CSSOM: the Content-Security-Policy refuses style attributes
    else if (key === "style") el.style.cssText = String(value);
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

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

// The identity of a child among its siblings: data-key, id, data-focus, data-action (buttons
// of actions) or data-action-target (clickable board parts); null: matched by position.
function keyOf(node) {
  if (node.nodeType !== 1) return null;
  const d = node.dataset || {};
  const key = d.key ?? (node.id || null) ?? d.focus ?? d.action ?? d.actionTarget;
  return key === undefined || key === null ? null : `${node.nodeName}#${key}`;
}

// Attributes the user owns once the element is on the page (an opened <details>, the text
// being typed into a focused field).
function userOwned(el, name) {
  if (name === "open" && el.nodeName === "DETAILS") return true;
  return name === "value" && el === document.activeElement;
}

function patchAttributes(live, fresh) {
  for (const { name } of [...live.attributes]) {
    if (!fresh.hasAttribute(name) && !userOwned(live, name)) live.removeAttribute(name);
  }
  for (const { name, value } of [...fresh.attributes]) {
    if (live.getAttribute(name) !== value && !userOwned(live, name)) {
      if (name === "style") {
        live.style.cssText = value;
        continue;
      } // CSSOM (CSP)
      live.setAttribute(name, value);
      if (name === "value" && "value" in live) live.value = value;
    }
  }
  if ("checked" in fresh && live.checked !== fresh.checked && !live.matches(":focus")) live.checked = fresh.checked;
  const handlers = fresh.__on || {};
  for (const type of Object.keys(live.__on || {})) if (!(type in handlers)) live.__on[type] = null;
  for (const [type, fn] of Object.entries(handlers)) setHandler(live, type, fn);
}

/**
 * Make `live` (an element on the page) look like `fresh` (the same view built anew) while
 * keeping every element that is still there: a button being pressed, the focus, an open
 * <details> and scroll positions survive an update. Children are matched by key (keyOf), the
 * rest by position and tag. Returns the element that is now on the page (`live`, or `fresh`
 * if the two cannot be matched).
 */
export function patch(live, fresh) {
  if (live.nodeName !== fresh.nodeName || live.namespaceURI !== fresh.namespaceURI) {
    live.replaceWith(fresh);
    return fresh;
  }
  patchAttributes(live, fresh);
  patchChildren(live, [...fresh.childNodes]);
  return live;
}

/** Give `parent` exactly the children `wanted` (fresh nodes), reusing matching live ones. */
export function patchChildren(parent, wanted) {
  const old = [...parent.childNodes];
  const keyed = new Map();
  for (const node of old) {
    const k = keyOf(node);
    if (k !== null && !keyed.has(k)) keyed.set(k, node);
  }
  const used = new Set();
  let cursor = 0;
  const result = wanted.map((fresh) => {
    const k = keyOf(fresh);
    let match = null;
    if (k !== null) match = keyed.get(k) || null;
    else {
      while (cursor < old.length && (used.has(old[cursor]) || keyOf(old[cursor]) !== null)) cursor++;
      const candidate = old[cursor];
      if (candidate && candidate.nodeName === fresh.nodeName && candidate.namespaceURI === fresh.namespaceURI) {
        match = candidate;
        cursor++;
      }
    }
    if (match === null || used.has(match)) return fresh;
    used.add(match);
    if (match.nodeType === 1) {
      patchAttributes(match, fresh);
      patchChildren(match, [...fresh.childNodes]);
    } else if (match.nodeValue !== fresh.nodeValue) match.nodeValue = fresh.nodeValue;
    return match;
  });
  for (const node of old) if (!used.has(node)) node.remove();
  // Put the nodes in order, moving only those that are out of place.
  result.forEach((node, i) => {
    if (parent.childNodes[i] !== node) parent.insertBefore(node, parent.childNodes[i] || null);
  });
}
