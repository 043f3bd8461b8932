// Pure: apply an RFC 6902 JSON Patch (the operations the server sends: add, remove, replace) to a
// document without changing it. Only the objects on a changed path are copied; the rest is shared
// with the document before, as it is on the server. A patch that does not fit throws.

function tokens(path) {
  if (path === '') return [];
  if (path[0] !== '/') throw new Error(`not a JSON pointer: ${path}`);
  return path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function copyOf(node) {
  if (Array.isArray(node)) return node.slice();
  if (node !== null && typeof node === 'object') return { ...node };
  throw new Error('a path goes through a value that is not an object or a list');
}

function index(list, token, adding) {
  if (adding && token === '-') return list.length;
  const i = Number(token);
  if (!/^(0|[1-9][0-9]*)$/.test(token) || i > list.length - (adding ? 0 : 1)) throw new Error(`no index ${token}`);
  return i;
}

/** Return `doc` with one operation applied; the objects on its path are copies. */
function applyOne(doc, op) {
  const path = tokens(op.path);
  if (!path.length) {
    if (op.op === 'add' || op.op === 'replace') return op.value;
    throw new Error(`cannot ${op.op} the whole document`);
  }
  const root = copyOf(doc);
  let node = root;
  for (const token of path.slice(0, -1)) {
    const key = Array.isArray(node) ? index(node, token, false) : token;
    if (!(key in node)) throw new Error(`nothing at ${op.path}`);
    node[key] = copyOf(node[key]);
    node = node[key];
  }
  const last = path[path.length - 1];
  if (Array.isArray(node)) {
    const i = index(node, last, op.op === 'add');
    if (op.op === 'add') node.splice(i, 0, op.value);
    else if (op.op === 'remove') node.splice(i, 1);
    else if (op.op === 'replace') node[i] = op.value;
    else throw new Error(`unknown operation ${op.op}`);
  } else if (op.op === 'add') {
    node[last] = op.value;
  } else if (op.op === 'remove' || op.op === 'replace') {
    if (!(last in node)) throw new Error(`nothing at ${op.path}`);
    if (op.op === 'remove') delete node[last];
    else node[last] = op.value;
  } else {
    throw new Error(`unknown operation ${op.op}`);
  }
  return root;
}

/** Return `doc` with every operation of `patch` applied in order; `doc` itself is left as it was. */
export function applyPatch(doc, patch) {
  if (!Array.isArray(patch)) throw new Error('a patch is a list of operations');
  return patch.reduce(applyOne, doc);
}
