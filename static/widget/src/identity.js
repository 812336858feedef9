// The customer the shop signed in (DESIGN.md `hello.identity`, the API's `identify` and
// `logout`). Kept in memory only, never in a cookie or storage: the shop's page calls
// `identify` on every page load, and the widget sends it with every `hello` (reconnects
// too). The server believes it only when the signature checks.

const FIELDS = ["id", "email", "name", "signature"];

/** `{id, email, name, signature}` with string values, or null when it is not one. */
export function identityFrom(value) {
  if (!value || typeof value !== "object") return null;
  const identity = {};
  for (const field of FIELDS) {
    const item = value[field] == null ? "" : value[field];
    if (typeof item !== "string" && typeof item !== "number") return null;
    identity[field] = String(item);
  }
  return identity.id && identity.signature ? identity : null;
}

export function sameIdentity(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}
