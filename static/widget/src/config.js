// The site's config (static/widget/README.md "Server contract", 1): one request at a time,
// kept once loaded; a failed request is forgotten, so the next call asks again. A page whose
// origin the site does not allow gets an error with the server's `body`, so the loader can
// remove the widget and say why.

/** The languages the widget speaks (the server's chatwidget.platform.languages). */
export const LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "pl"];

/** The widget's language of one tag ("fr-CA" -> "fr", "DE" -> "de"), or null. */
export function languageOf(tag) {
  if (typeof tag !== "string") return null;
  const primary = tag.trim().replace("_", "-").split("-")[0].toLowerCase();
  return LANGUAGES.includes(primary) ? primary : null;
}

/**
 * The first language the widget speaks among `candidates`, in order (arrays are read in
 * order too): `setLanguage`, the tag's `data-lang`, the page's `<html lang>`, the browser's
 * `navigator.languages`. English when none is.
 */
export function pickLanguage(...candidates) {
  for (const tag of candidates.flat()) {
    const language = languageOf(tag);
    if (language) return language;
  }
  return "en";
}

/** What the page and the browser say, in order of precedence (after `setLanguage`). */
export function pageLanguages(script, doc = document, nav = navigator) {
  return [
    script.dataset.lang,
    doc.documentElement.lang,
    ...(nav.languages && nav.languages.length ? nav.languages : [nav.language]),
  ];
}

/** The language of the last `setLanguage` a page queued before the loader ran, if any. */
export function queuedLanguage(queued) {
  const set = queued.filter((command) => Array.isArray(command) && command[0] === "setLanguage");
  return set.length ? set[set.length - 1][1] : undefined;
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
