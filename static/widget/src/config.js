// The site's config (static/widget/README.md "Server contract", 1): one request at a time,
// kept once loaded; a failed request is forgotten, so the next call asks again. A page whose
// origin the site does not allow gets an error with the server's `body`, so the loader can
// remove the widget and say why.

/** The widget's language for a `data-lang`, `<html lang>` or browser value: de or en. */
export function pickLanguage(value) {
  return /^de/i.test(value || "") ? "de" : "en";
}

export function configUrl(serverOrigin, siteKey, language) {
  return `${serverOrigin}/widget/v1/${encodeURIComponent(siteKey)}/config.json?lang=${language}`;
}

/**
 * `language()`: the language to ask for; `onLoaded(config)` runs before the request's promise
 * resolves. `load()` returns the pending or loaded config; `reset()` makes the next `load()`
 * ask again (a new language).
 */
export function createConfigLoader({ serverOrigin, siteKey, language, onLoaded }) {
  let request = null;
  const load = () =>
    (request ||= fetch(configUrl(serverOrigin, siteKey, language()), { credentials: "omit" })
      .then(async (response) => {
        if (response.status === 403) {
          const body = await response.json().catch(() => ({}));
          if (body.error === "origin_not_allowed") throw Object.assign(new Error(), { body });
        }
        if (!response.ok) throw new Error("config " + response.status);
        return response.json();
      })
      .then((loaded) => {
        onLoaded(loaded);
        return loaded;
      })
      .catch((error) => {
        request = null;
        throw error;
      }));
  return { load, reset: () => (request = null) };
}
