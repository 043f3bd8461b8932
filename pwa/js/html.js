// The one escaping helper: every string that reaches HTML passes through escapeHtml,
// and the `html` tag escapes each interpolated value unless it is already SafeHtml.

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(value) {
  return String(value ?? '').replace(/[&<>"'`]/g, (c) => ENTITIES[c]);
}

class SafeHtml {
  constructor(text) { this.text = text; }
  toString() { return this.text; }
}

function part(value) {
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(part).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(value);
}

/** Tagged template: html`<p>${name}</p>` escapes `name`; nested html`` results pass unchanged. */
export function html(strings, ...values) {
  let out = strings[0];
  values.forEach((value, i) => { out += part(value) + strings[i + 1]; });
  return new SafeHtml(out);
}

/** Replace `root`'s content, keeping the focused control (by id) and its caret where possible. */
export function render(root, content) {
  const active = document.activeElement;
  const focusId = active && root.contains(active) ? active.id : null;
  const caret = focusId && typeof active.selectionStart === 'number' ? active.selectionStart : null;
  root.innerHTML = part(content);
  if (focusId) {
    const again = document.getElementById(focusId);
    if (again) {
      again.focus({ preventScroll: true });
      if (caret !== null && typeof again.setSelectionRange === 'function') {
        try { again.setSelectionRange(caret, caret); } catch { /* not a text field */ }
      }
    }
  }
}

/** Mark markup built here from numbers and escaped parts (e.g. SVG paths) as safe to insert. */
export function trusted(markup) { return new SafeHtml(String(markup)); }
