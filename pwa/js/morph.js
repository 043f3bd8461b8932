// Draw in place: make a node's children match new markup by changing only what differs, so that what
// the player was doing survives an update (the focused control and its caret, a half-typed reason,
// an open card, the scroll). A node is matched by its `id` or `data-key` when it has one, else by its
// place and tag. What belongs to the player is left as they made it: the `open` of a <details> that
// was already there, and the value of a control they have typed into (its markup's value is applied
// only when the markup itself changed it, and never while the control has focus; a <details>'s `open`
// only when its `data-opened` changed). A custom element
// (a tag with a dash) draws its own children: only its attributes are matched.
const PARSER = document.createElement('template');

/** Make `root`'s children match `content` (an html`` result or a string of markup), in place. */
export function morph(root, content) {
  PARSER.innerHTML = String(content ?? '');
  children(root, PARSER.content);
  PARSER.innerHTML = '';
  return root;
}

function keyOf(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  return node.id || node.getAttribute('data-key') || null;
}

function same(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b);
}

function children(parent, model) {
  const keyed = new Map();
  for (const node of parent.childNodes) {
    const key = keyOf(node);
    if (key) keyed.set(key, node);
  }
  let at = parent.firstChild;
  for (const wanted of [...model.childNodes]) {
    const key = keyOf(wanted);
    let match = key ? keyed.get(key) : null;
    if (!match && !key && at && !keyOf(at) && same(at, wanted)) match = at;
    if (match && !same(match, wanted)) match = null;
    if (match) {
      if (match !== at) parent.insertBefore(match, at);
      else at = at.nextSibling;
      update(match, wanted);
      if (key) keyed.delete(key);
    } else {
      parent.insertBefore(document.importNode(wanted, true), at);
    }
  }
  while (at) {
    const next = at.nextSibling;
    parent.removeChild(at);
    at = next;
  }
}

function update(node, wanted) {
  if (node.isEqualNode(wanted)) return; // nothing differs below: nothing to do
  if (node.nodeType !== Node.ELEMENT_NODE) {
    if (node.nodeValue !== wanted.nodeValue) node.nodeValue = wanted.nodeValue;
    return;
  }
  attributes(node, wanted);
  if (node.localName.includes('-')) return; // a custom element draws its own children
  if (node.localName === 'textarea') {
    if (document.activeElement !== node && node.defaultValue !== wanted.defaultValue) {
      node.defaultValue = wanted.defaultValue;
      node.value = wanted.defaultValue;
    }
    return;
  }
  children(node, wanted);
}

const OWNED = { details: ['open'], dialog: ['open'] };

function attributes(node, wanted) {
  const owned = OWNED[node.localName] || [];
  const decided = node.localName === 'details' && node.getAttribute('data-opened') !== wanted.getAttribute('data-opened');
  const control = node.localName === 'input' || node.localName === 'option';
  const before = control && { value: node.getAttribute('value'), checked: node.hasAttribute('checked'),
    selected: node.hasAttribute('selected') };
  for (const { name } of [...node.attributes]) {
    if (!wanted.hasAttribute(name) && !owned.includes(name)) node.removeAttribute(name);
  }
  for (const { name, value } of [...wanted.attributes]) {
    if (!owned.includes(name) && node.getAttribute(name) !== value) node.setAttribute(name, value);
  }
  if (decided) node.open = wanted.hasAttribute('open');
  if (!control || document.activeElement === node) return;
  // The markup changed what the control holds: that change is the page's, so it is shown.
  if (before.value !== wanted.getAttribute('value')) node.value = wanted.getAttribute('value') ?? '';
  if (before.checked !== wanted.hasAttribute('checked')) node.checked = wanted.hasAttribute('checked');
  if (before.selected !== wanted.hasAttribute('selected')) node.selected = wanted.hasAttribute('selected');
}
